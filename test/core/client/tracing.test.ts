import diagnostics_channel from 'node:diagnostics_channel';
import {
  BrokerTracingChannel,
  ClientTracingChannel,
  CoreMessage,
  PropertyKind,
  type BrokerDeliverTrace,
  type BrokerRouteTrace,
  type ClientCommitTrace,
  type ClientReceiveTrace,
  type ClientSendTrace,
  type ReceivedMessage,
} from '../../../src';
import { receiveCount, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * The tracing channels over a real broker and client: what each context says, the trace context
 * stamped on a send by a subscriber and read back on receive and on the broker, events in the
 * order a span needs them, and nothing added to a message while no one listens.
 */

const brokers = useTestBrokers();
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

type Handlers = Parameters<ReturnType<typeof diagnostics_channel.tracingChannel>['subscribe']>[0];
const subscriptions: Array<() => void> = [];

/**
 * Records `name`'s events with their contexts; `onStart` may write to the context, and `order`
 * gets each event's name as it comes.
 */
function record<T extends object>(
  name: string,
  onStart: (context: T) => void = () => undefined,
  order: string[] = [],
): Array<{ event: string; context: T }> {
  const events: Array<{ event: string; context: T }> = [];
  const push = (event: string) => (context: object) => {
    order.push(event);
    events.push({ event, context: context as T });
  };
  const handlers: Handlers = {
    start: (context) => {
      onStart(context as T);
      push('start')(context);
    },
    end: push('end'),
    asyncStart: push('asyncStart'),
    asyncEnd: push('asyncEnd'),
    error: push('error'),
  };
  const channel = diagnostics_channel.tracingChannel(name);
  channel.subscribe(handlers);
  subscriptions.push(() => channel.unsubscribe(handlers));
  return events;
}

afterEach(() => {
  for (const unsubscribe of subscriptions.splice(0)) unsubscribe();
});

async function setUp() {
  const broker = await brokers.startBroker();
  const factory = await brokers.connect(broker);
  const session = await factory.createSession();
  await session.createQueue('traced', 'traced');
  session.start();
  return { broker, session };
}

function message(body: string, duplicateId?: string): CoreMessage {
  const m = new CoreMessage();
  m.body = Buffer.from(body);
  m.durable = true;
  m.userId = '0f0e8f6e-9a38-11ee-b9d1-0242ac120002';
  if (duplicateId !== undefined)
    m.properties.set('_HQ_DUPL_ID', { kind: PropertyKind.STRING, value: duplicateId });
  return m;
}

function property(received: ReceivedMessage, name: string): unknown {
  return received.message.properties.get(name)?.value;
}

test("a send's context, and the traceparent a subscriber sets stamped on the message and read back", async () => {
  const { session } = await setUp();
  const sends = record<ClientSendTrace>(ClientTracingChannel.SEND, (context) => {
    context.traceparent = TRACEPARENT;
    context.tracestate = 'vendor=opaque';
  });
  const receives = record<ClientReceiveTrace>(ClientTracingChannel.RECEIVE);
  await session.createProducer('traced').send(message('hello', 'dup-1'));

  expect(sends.map(({ event }) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  expect(sends[0]?.context).toEqual({
    destination: 'traced',
    messageId: '0f0e8f6e-9a38-11ee-b9d1-0242ac120002',
    duplicateId: 'dup-1',
    bodySize: 5,
    durable: true,
    traceparent: TRACEPARENT,
    tracestate: 'vendor=opaque',
  });

  const consumer = await session.createConsumer('traced');
  const [received] = (await receiveCount(consumer, 1)) as [ReceivedMessage];
  expect(property(received, 'traceparent')).toBe(TRACEPARENT);
  expect(property(received, 'tracestate')).toBe('vendor=opaque');
  await waitFor(() => receives.some(({ event }) => event === 'asyncEnd'), 'the delivery to end');
  expect(receives.map(({ event }) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  expect(receives[0]?.context).toEqual({
    destination: 'traced',
    queue: 'traced',
    messageId: '0f0e8f6e-9a38-11ee-b9d1-0242ac120002',
    serverMessageId: received.message.messageId,
    duplicateId: 'dup-1',
    bodySize: 5,
    deliveryCount: 1,
    traceparent: TRACEPARENT,
    tracestate: 'vendor=opaque',
  });
});

test('a value that is not a W3C traceparent is not stamped, nor its tracestate', async () => {
  const { session } = await setUp();
  record<ClientSendTrace>(ClientTracingChannel.SEND, (context) => {
    context.traceparent = '00-00000000000000000000000000000000-00f067aa0ba902b7-01'; // all-zero trace id
    context.tracestate = 'vendor=opaque';
  });
  await session.createProducer('traced').send(message('x'));
  const [received] = (await receiveCount(await session.createConsumer('traced'), 1)) as [ReceivedMessage];
  expect(property(received, 'traceparent')).toBeUndefined();
  expect(property(received, 'tracestate')).toBeUndefined();
});

test('with no subscriber nothing is added to the message, and a malformed one on the wire reads as none', async () => {
  const { session } = await setUp();
  const producer = session.createProducer('traced');
  await producer.send(message('plain'));
  const odd = message('odd');
  odd.properties.set('traceparent', { kind: PropertyKind.STRING, value: 'not-a-traceparent' });
  await producer.send(odd);

  const receives = record<ClientReceiveTrace>(ClientTracingChannel.RECEIVE);
  const [plain, malformed] = (await receiveCount(await session.createConsumer('traced'), 2)) as [
    ReceivedMessage,
    ReceivedMessage,
  ];
  expect(plain.message.properties.names()).toEqual([]);
  expect(property(malformed, 'traceparent')).toBe('not-a-traceparent');
  await waitFor(() => receives.filter(({ event }) => event === 'asyncEnd').length === 2, 'two deliveries');
  for (const { context } of receives) expect(context.traceparent).toBeUndefined();
});

test("a handler runs inside its delivery's span: between start and asyncEnd", async () => {
  const { session } = await setUp();
  const order: string[] = [];
  record<ClientReceiveTrace>(ClientTracingChannel.RECEIVE, () => undefined, order);
  const consumer = await session.createConsumer('traced');
  consumer.setMessageHandler(async () => {
    order.push('handler began');
    await new Promise((resolve) => setTimeout(resolve, 10));
    order.push('handler ended');
  });
  await session.createProducer('traced').send(message('x'));
  await waitFor(() => order.includes('asyncEnd'), 'the handler span to end');
  expect(order).toEqual(['start', 'handler began', 'end', 'handler ended', 'asyncStart', 'asyncEnd']);
});

test('a handler that throws ends its span with the error', async () => {
  const { session } = await setUp();
  const receives = record<ClientReceiveTrace & { error?: unknown }>(ClientTracingChannel.RECEIVE);
  const consumer = await session.createConsumer('traced');
  const failure = new Error('the application failed');
  consumer.setMessageHandler(() => {
    throw failure;
  });
  await session.createProducer('traced').send(message('x'));
  await waitFor(() => receives.some(({ event }) => event === 'asyncEnd'), 'the handler span to end');
  expect(receives.map(({ event }) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  expect(receives[0]?.context.error).toBe(failure);
});

test("a browser's messages are not traced: browsing consumes nothing", async () => {
  const { session } = await setUp();
  await session.createProducer('traced').send(message('x'));
  const receives = record<ClientReceiveTrace>(ClientTracingChannel.RECEIVE);
  const browser = await session.createConsumer('traced', { browseOnly: true });
  expect(await browser.receiveImmediate()).not.toBeNull();
  const [consumed] = await receiveCount(await session.createConsumer('traced'), 1);
  expect(consumed).toBeDefined();
  await waitFor(() => receives.some(({ event }) => event === 'asyncEnd'), 'the consumer delivery');
  expect(receives.map(({ event }) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
});

test('a commit is traced until the broker answered, with the session name', async () => {
  const broker = await brokers.startBroker();
  const factory = await brokers.connect(broker);
  const session = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
  await session.createQueue('traced', 'traced');
  const commits = record<ClientCommitTrace>(ClientTracingChannel.COMMIT);
  await session.createProducer('traced').send(message('x'));
  await session.commit();
  expect(commits.map(({ event }) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  expect(commits[0]?.context).toEqual({ session: session.name });
});

test("the broker's route and deliver carry the message's trace context", async () => {
  const { session } = await setUp();
  const routes = record<BrokerRouteTrace>(BrokerTracingChannel.ROUTE);
  const delivers = record<BrokerDeliverTrace>(BrokerTracingChannel.DELIVER);
  const traced = message('hello', 'dup-2');
  traced.properties.set('traceparent', { kind: PropertyKind.STRING, value: TRACEPARENT });
  await session.createProducer('traced').send(traced);
  const consumer = await session.createConsumer('traced');
  const [received] = (await receiveCount(consumer, 1)) as [ReceivedMessage];

  expect(routes.map(({ event }) => event)).toEqual(['start', 'end']);
  const common = {
    destination: 'traced',
    messageId: '0f0e8f6e-9a38-11ee-b9d1-0242ac120002',
    serverMessageId: received.message.messageId,
    duplicateId: 'dup-2',
    bodySize: 5,
    durable: true,
    traceparent: TRACEPARENT,
    tracestate: undefined,
  };
  expect(routes[0]?.context).toEqual({ ...common, queues: ['traced'], result: 1 });
  expect(delivers.map(({ event }) => event)).toEqual(['start', 'end']);
  expect(delivers[0]?.context).toEqual({
    ...common,
    queue: 'traced',
    consumerId: consumer.id,
    deliveryCount: 1,
  });
});
