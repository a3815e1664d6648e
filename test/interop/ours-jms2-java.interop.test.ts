import { describeJavaJms2RestartScenarios } from './support/java-jms2-restart-scenarios';
import { describeJavaJms2Scenarios } from './support/java-jms2-scenarios';

/** HornetQ 2.4.7's Java JMS 2.0 client (and ours on the shared subscriptions) through our broker (issue 27). */
describeJavaJms2Scenarios('ours');
describeJavaJms2RestartScenarios('ours');
