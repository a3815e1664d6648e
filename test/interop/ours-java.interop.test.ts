import { describeJavaDriverScenarios } from './support/java-driver-scenarios';

/** HornetQ's Java JMS client, Java to Java, through our broker (issue 14). */
describeJavaDriverScenarios('ours');
