package dev.noneops.ports.machine;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands one watch's events to its listener one at a time, in order, on the executor, whichever
 * thread raised them (a client's watch or resync thread, or the listener's own status write, whose
 * event waits for the listener to return). Once {@link #close()} has returned nothing more is
 * delivered. For implementations of {@link MachineResource#watch}, real and simulated alike.
 */
public final class SerialDelivery {
  private final MachineListener listener;
  private final Executor executor;
  private final Queue<MachineEvent> pending = new ArrayDeque<>();
  private final ReentrantLock delivering = new ReentrantLock();
  private boolean draining;
  private volatile boolean closed;

  public SerialDelivery(MachineListener listener, Executor executor) {
    this.listener = listener;
    this.executor = executor;
  }

  public void offer(MachineEvent event) {
    synchronized (pending) {
      if (closed) {
        return;
      }
      pending.add(event);
      if (draining) {
        return;
      }
      draining = true;
    }
    executor.execute(this::drain);
  }

  private void drain() {
    while (true) {
      MachineEvent next;
      synchronized (pending) {
        next = pending.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      delivering.lock();
      try {
        if (!closed) {
          listener.onEvent(next);
        }
      } catch (RuntimeException swallowed) {
        // The contract: a listener's exception does not end the watch.
      } finally {
        delivering.unlock();
      }
    }
  }

  public void close() {
    synchronized (pending) {
      closed = true;
      pending.clear();
    }
    // Waits for a delivery in progress on another thread; re-entrant from the listener itself.
    delivering.lock();
    delivering.unlock();
  }
}
