import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { StatusService, statusOperation } from '@nvcf/gateway/status';
import { startCeiling } from '../fanout.js';
import { memoryBus, event, publish, subscribed } from './client.js';

// the selection of bench/subscriptions/run.ts's load
const QUERY =
  'subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state at message instance { id cluster { id } } } }';

describe("the fair ceiling's payload", () => {
  it("has ours' bytes for the same event, but for the cursor's signature", async () => {
    const bus = await memoryBus();
    const service = new StatusService({
      bus,
      cursorSecret: 'ceiling-payload-test-secret-0123456789',
      execute: () => Promise.reject(new Error('no remote field is selected')),
    });
    await service.start();
    const document = parse(QUERY);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const op =
      operation && statusOperation({ document, operation, fragments: new Map<string, FragmentDefinitionNode>() });
    if (!op) throw new Error('not a status operation');
    const run = await service.run(op, { f: 'fn' }, 'nca-a', null, QUERY);
    if (!('events' in run)) throw new Error('subscription refused');
    await using ceiling = await startCeiling({ bus, tenant: 'nca-a', functionId: 'fn' });
    using client = await subscribed(ceiling.url, ['s']);

    const next = run.events.next();
    await publish(bus, event('fn', '7:12:1800000000000'));
    const ours = JSON.stringify((await next).value.result);
    await client.until(1);
    const theirs = JSON.stringify(client.received[0].payload);

    expect(Buffer.byteLength(theirs)).toBe(Buffer.byteLength(ours));
    const unsigned = (s: string) => s.replace(/"cursor":"v1\.(\w+)\.[\w-]{22}"/, '"cursor":"v1.$1.MAC"');
    expect(unsigned(theirs)).toBe(unsigned(ours));
    await run.events.return?.();
    await service.stop();
    await bus.dispose();
  });
});
