import { describeServerScenarios } from './support/server-scenarios';

/** Our client and HornetQ's own Java JMS client against our broker. */
describeServerScenarios('ours');
