import { describeServerScenarios } from './support/server-scenarios';

/** Our client and HornetQ's Java JMS client against ActiveMQ Artemis 2.40.0's HORNETQ acceptor. */
describeServerScenarios('artemis');
