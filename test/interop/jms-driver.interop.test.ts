import { describeJavaDriverScenarios } from './support/java-driver-scenarios';

/** The HornetQ Java JMS client driver itself, through a real HornetQ 2.4.7 server. */
describeJavaDriverScenarios('hornetq');
