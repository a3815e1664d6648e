import { describeJavaJms2RestartScenarios } from './support/java-jms2-restart-scenarios';
import { describeJavaJms2Scenarios } from './support/java-jms2-scenarios';

/** The JMS 2.0 scenarios through a real HornetQ 2.4.7 server: what ours-jms2-java expects of our broker. */
describeJavaJms2Scenarios('hornetq');
describeJavaJms2RestartScenarios('hornetq');
