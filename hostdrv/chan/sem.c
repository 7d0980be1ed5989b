/* sem.c: semaphore waits and copies. */
#include "../device/internal.h"

gc_copy_record_t gc_copy_record(const uint32_t words[4]) {
    gc_copy_record_t r = {.payload = words[0], .end = ((uint64_t)words[3] << 32) | words[2]};
    r.start = r.end - (uint32_t)((uint32_t)r.end - words[1]);
    return r;
}

gc_status_t gc_sem_wait(gc_device_t *dev, uint64_t addr, uint32_t value, uint64_t *cycle_seen) {
    if (!dev) return GC_ERR_INVALID_ARG;
    uint64_t t0 = gc_device_cycles(dev); /* the budget is device cycles from here */
    for (;;) {
        uint32_t v = 0;
        gc_status_t st = gc_mem_read(dev, addr, &v, sizeof v);
        if (st) return st;
        if (v == value) {
            if (cycle_seen) *cycle_seen = gc_device_cycles(dev);
            return GC_OK;
        }
        uint64_t spent = gc_device_cycles(dev) - t0;
        if (spent >= dev->cfg.wait_cycles) {
            fprintf(stderr, "hostdrv: semaphore 0x%010llx holds 0x%08x, still not 0x%08x after %llu cycles\n",
                    (unsigned long long)addr, v, value, (unsigned long long)spent);
            gc_device_dump_state(dev, stderr);
            return gc_fail(dev, GC_ERR_TIMEOUT, "semaphore 0x%010llx: waited %llu cycles for 0x%08x, it holds 0x%08x",
                           (unsigned long long)addr, (unsigned long long)spent, value, v);
        }
        uint64_t left = dev->cfg.wait_cycles - spent;
        if ((st = gc_device_run(dev, left < dev->cfg.poll_cycles ? left : dev->cfg.poll_cycles)))
            return gc_fail_backend(dev, st, "waiting for semaphore 0x%010llx to hold 0x%08x (it holds 0x%08x)",
                                   (unsigned long long)addr, value, v);
    }
}
