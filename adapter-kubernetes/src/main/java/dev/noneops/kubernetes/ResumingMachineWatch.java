package dev.noneops.kubernetes;

import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineEvent;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import dev.noneops.ports.machine.SerialDelivery;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One Machine followed: read it, watch from that read's {@code resourceVersion}; when the watch is
 * lost for any reason, wait, read again (delivering RESYNCED, or DELETED when it is gone) and
 * watch again from there. Every resync period it does the same although nothing was reported
 * lost, so a connection that died without a word (a half-open TCP connection, which neither side
 * notices) costs at most one period. Reads and restarts run on the client's scheduler thread, one
 * at a time; events reach the listener through its {@link SerialDelivery}. Each watch request is
 * a generation: events and closes of a replaced one are ignored.
 */
final class ResumingMachineWatch implements MachineWatch {
  private final KubernetesMachineResource resource;
  private final String name;
  private final SerialDelivery delivery;
  private final Object lock = new Object();
  private Watch current;
  private int generation;
  private ScheduledFuture<?> resync;
  private Duration retryDelay;
  private boolean seen;
  /** The resourceVersion of the last event delivered: a watch replaying it is not news. */
  private String lastDelivered = "";

  private boolean closed;

  ResumingMachineWatch(KubernetesMachineResource resource, String name, SerialDelivery delivery) {
    this.resource = resource;
    this.name = name;
    this.delivery = delivery;
    this.retryDelay = resource.connection().watchRetryDelay();
  }

  /** The first read and watch, on the caller's thread, so a missing CRD is the caller's error. */
  void start() throws IOException {
    GenericKubernetesResource found = resource.read(name);
    synchronized (lock) {
      if (found != null) {
        seen = true;
        deliver(new MachineEvent(MachineEvent.Kind.ADDED, MachineMapping.toMachine(found)));
      }
      try {
        startWatch(found);
      } catch (RuntimeException e) {
        throw MachineFailures.of("watch", name, e, resource.connection().apiServer());
      }
      long period = resource.connection().resyncPeriod().toMillis();
      resync = resource
          .scheduler()
          .scheduleWithFixedDelay(this::periodicResync, period, period, TimeUnit.MILLISECONDS);
    }
  }

  /** Starts a watch from {@code from}'s version; called holding {@link #lock}. */
  private void startWatch(GenericKubernetesResource from) {
    ListOptions options = new ListOptions();
    if (from != null && from.getMetadata().getResourceVersion() != null) {
      options.setResourceVersion(from.getMetadata().getResourceVersion());
    }
    int gen = ++generation;
    resource.requestCounter().incrementAndGet();
    current = resource.machines().withName(name).watch(options, new Events(gen));
  }

  private void periodicResync() {
    try {
      refresh();
    } catch (IOException | RuntimeException e) {
      // The API server did not answer: the watch in place goes on; the next period reads again.
    }
  }

  private void resume() {
    try {
      refresh();
      synchronized (lock) {
        retryDelay = resource.connection().watchRetryDelay();
      }
    } catch (IOException | RuntimeException e) {
      synchronized (lock) {
        retryDelay = min(retryDelay.multipliedBy(2), KubernetesConnection.MAX_RETRY_DELAY);
      }
      scheduleResume();
    }
  }

  /** Reads the Machine, delivers what it found, and replaces the watch by one from there. */
  private void refresh() throws IOException {
    GenericKubernetesResource found = resource.read(name);
    Watch replaced;
    synchronized (lock) {
      if (closed) {
        return;
      }
      if (found != null) {
        seen = true;
        deliver(new MachineEvent(MachineEvent.Kind.RESYNCED, MachineMapping.toMachine(found)));
      } else if (seen) {
        seen = false;
        deliver(new MachineEvent(MachineEvent.Kind.DELETED, gone()));
      }
      replaced = current;
      current = null;
      generation++; // the replaced watch's close, and any late event of it, are no news
      startWatch(found);
    }
    if (replaced != null) {
      replaced.close();
    }
  }

  private void lost(int gen) {
    synchronized (lock) {
      if (closed || gen != generation) {
        return;
      }
      current = null;
      generation++;
    }
    scheduleResume();
  }

  private void scheduleResume() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      resource.scheduler().schedule(this::resume, retryDelay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Hands {@code event} on; called holding {@link #lock}. */
  private void deliver(MachineEvent event) {
    lastDelivered = event.machine().resourceVersion();
    delivery.offer(event);
  }

  private Machine gone() {
    return new Machine(name, "", MachineSpec.EMPTY, MachineStatus.EMPTY);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public void close() {
    Watch watch;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      watch = current;
      current = null;
      if (resync != null) {
        resync.cancel(false);
      }
    }
    if (watch != null) {
      watch.close();
    }
    delivery.close();
  }

  private final class Events implements Watcher<GenericKubernetesResource> {
    private final int gen;

    private Events(int gen) {
      this.gen = gen;
    }

    @Override
    public void eventReceived(Action action, GenericKubernetesResource object) {
      MachineEvent.Kind kind;
      switch (action) {
        case ADDED:
          kind = MachineEvent.Kind.ADDED;
          break;
        case MODIFIED:
          kind = MachineEvent.Kind.MODIFIED;
          break;
        case DELETED:
          kind = MachineEvent.Kind.DELETED;
          break;
        default:
          return; // ERROR and BOOKMARK carry no Machine; an ERROR ends the watch through onClose
      }
      synchronized (lock) {
        if (closed || gen != generation) {
          return;
        }
        Machine machine = MachineMapping.toMachine(object);
        if (kind != MachineEvent.Kind.DELETED
            && !machine.resourceVersion().isEmpty()
            && machine.resourceVersion().equals(lastDelivered)) {
          return; // the state the read before this watch delivered, sent again by the watch
        }
        if (kind == MachineEvent.Kind.ADDED && seen) {
          // A server that cannot replay from a version sends the object as new: to the listener,
          // which already has it, that is a change.
          kind = MachineEvent.Kind.MODIFIED;
        }
        seen = kind != MachineEvent.Kind.DELETED;
        deliver(new MachineEvent(kind, machine));
      }
    }

    @Override
    public void onClose(WatcherException cause) {
      lost(gen);
    }

    @Override
    public void onClose() {
      lost(gen);
    }
  }
}
