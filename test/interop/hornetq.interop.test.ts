import { describeServerScenarios } from './support/server-scenarios';

/** Our client and HornetQ's own Java JMS client against a real HornetQ 2.4.7 server. */
describeServerScenarios('hornetq');
