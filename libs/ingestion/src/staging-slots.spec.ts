import { StagingSlots } from './staging-slots';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StagingSlots', () => {
  it('lets as many loads stage as it has slots, then the next ones in the order they asked', async () => {
    const slots = new StagingSlots(2);
    const order: string[] = [];
    const first = await slots.acquire();
    const second = await slots.acquire();
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then((release) => (order.push('fourth'), release));
    await tick();
    expect(order).toEqual([]);
    second();
    await tick();
    expect(order).toEqual(['third']);
    first();
    await tick();
    expect(order).toEqual(['third', 'fourth']);
    (await third)();
    (await fourth)();
  });

  it('gives a slot back once however often it is released, and a newcomer does not pass a waiter', async () => {
    const slots = new StagingSlots(1);
    const release = await slots.acquire();
    let waiterGot = false;
    const waiter = slots.acquire().then((r) => ((waiterGot = true), r));
    release();
    release();
    const newcomer = slots.acquire();
    let newcomerGot = false;
    void newcomer.then(() => (newcomerGot = true));
    await tick();
    expect(waiterGot).toBe(true);
    expect(newcomerGot).toBe(false);
    (await waiter)();
    await tick();
    expect(newcomerGot).toBe(true);
  });

  it('refuses a size below one', () => {
    expect(() => new StagingSlots(0)).toThrow(/at least 1/);
  });
});
