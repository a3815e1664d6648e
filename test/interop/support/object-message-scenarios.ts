import { HornetQQueue, MessageFormatException, type ObjectMessage } from '../../../src';
import { queueRef, RECEIVE_MS, type ScenarioContext, type ScenarioGroup } from './scenario-context';

const QUEUES = { toJava: 'objectToJava', fromJava: 'objectFromJava' } as const;

/**
 * ObjectMessage bodies do not cross between Node and Java (issue 13, item 2): ours are JSON marked
 * JMS_HQJS_OBJECT_ENCODING='json', Java's are Java serialization. Each side fails clearly, and
 * everything else of the message still arrives.
 */
export const objectMessageScenarios: ScenarioGroup = {
  server: { queues: Object.values(QUEUES) },
  define(context: ScenarioContext): void {
    test("our ObjectMessage reaches HornetQ's Java consumer, whose getObject fails on the JSON body", async () => {
      const java = context.java();
      const javaConsumer = await java.createConsumer(await context.javaSession(), queueRef(QUEUES.toJava));
      const session = await context.nodeSession();
      const producer = await session.createProducer(new HornetQQueue(QUEUES.toJava));
      const message = session.createObjectMessage({ kind: 'order', n: 1 });
      message.setStringProperty('colour', 'red');
      await producer.send(message);
      const received = await java.receive(javaConsumer, RECEIVE_MS);
      expect(received).toMatchObject({
        class: 'ObjectMessage',
        JMSMessageID: message.getJMSMessageID(),
        properties: { colour: ['string', 'red'], JMS_HQJS_OBJECT_ENCODING: ['string', 'json'] },
        // ObjectInputStream reads the first 4 bytes of the JSON text ('{"ki') as its stream header.
        body: { error: { class: 'javax.jms.JMSException', message: 'invalid stream header: 7B226B69' } },
      });
    });

    test("HornetQ's Java ObjectMessage reaches our consumer, whose getObject is a clear MessageFormatException", async () => {
      const session = await context.nodeSession();
      const consumer = await session.createConsumer(new HornetQQueue(QUEUES.fromJava));
      const [sent] = await context.java().send(await context.javaSession(), queueRef(QUEUES.fromJava), {
        class: 'ObjectMessage',
        body: 'serialized by Java',
        properties: { colour: ['string', 'blue'] },
      });
      const received = (await consumer.receive(RECEIVE_MS)) as ObjectMessage | null;
      if (received === null) throw new Error('the Java ObjectMessage did not arrive');
      expect([received.getJMSMessageID(), received.getStringProperty('colour')]).toEqual([
        sent?.JMSMessageID,
        'blue',
      ]);
      expect(typeof received.getObject).toBe('function');
      expect(() => received.getObject()).toThrow(MessageFormatException);
      expect(() => received.getObject()).toThrow(
        'the object is in Java serialization (stream magic 0xACED), sent by a Java client',
      );
    });
  },
};
