/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type ConnectionMetaData = HornetQConnectionMetaData;

/** What JMS says about this provider (HornetQ 2.4's answers: it implements JMS 2.0's classic API). */
export class HornetQConnectionMetaData {
  getJMSVersion(): string {
    return '2.0';
  }

  getJMSMajorVersion(): number {
    return 2;
  }

  getJMSMinorVersion(): number {
    return 0;
  }

  getJMSProviderName(): string {
    return 'HornetQ';
  }

  getProviderVersion(): string {
    return '2.4.0-js';
  }

  getJMSXPropertyNames(): string[] {
    return ['JMSXGroupID', 'JMSXGroupSeq', 'JMSXDeliveryCount'];
  }
}
