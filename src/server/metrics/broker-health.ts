import type { Broker } from '../broker';

/** What GET /health answers: 200 with status "up", or 503 with status "down" and why. */
export interface BrokerHealth {
  readonly httpStatus: 200 | 503;
  readonly body: {
    readonly status: 'up' | 'down';
    /** The broker's state (`none` when there is no broker yet, e.g. before EmbeddedJMS started one). */
    readonly state: string;
    readonly reason?: string;
    readonly acceptors?: readonly string[];
    readonly connections?: number;
    readonly sessions?: number;
  };
}

/**
 * Up means able to serve: started, and every acceptor listening. An orchestrator's readiness
 * probe takes it out of service from the first moment of a stop, before its clients are told.
 */
export function brokerHealth(broker: Broker | null): BrokerHealth {
  if (broker === null) return down('none', 'the broker is not started');
  const state = broker.status;
  const failure = broker.failure;
  if (failure !== null && state !== 'started')
    return down(state, `the message store failed (${failure.message}); the broker stopped itself`);
  if (state !== 'started') return down(state, `the broker is ${state}`);
  if (!broker.acceptorsListening) return down(state, 'an acceptor is not listening');
  return {
    httpStatus: 200,
    body: {
      status: 'up',
      state,
      acceptors: broker.acceptorAddresses,
      connections: broker.getConnectionCount(),
      sessions: broker.getSessionCount(),
    },
  };
}

function down(state: string, reason: string): BrokerHealth {
  return { httpStatus: 503, body: { status: 'down', state, reason } };
}
