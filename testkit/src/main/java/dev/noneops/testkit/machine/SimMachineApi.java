package dev.noneops.testkit.machine;

import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineEvent;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachineNames;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import dev.noneops.ports.machine.SerialDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * A cluster's API server for {@code Machine} objects, in memory, strict as the real one is where
 * the node depends on it: every change gets a new {@code resourceVersion}, a status write based on
 * an older one is a conflict, watches see every change unless their connection is lost ({@link
 * #loseWatches()}), and a resumed watch re-reads the object. One server serves any number of nodes,
 * each through its own {@link #client()}, so a fleet of simulated hosts shares one.
 *
 * <p>The methods other than {@link #client()} are the cluster's side, as an operator or a
 * controller would act on it (they are not counted as a node's requests): put and change specs,
 * write a status as another writer, delete, lose and restore watches, remove the resource type.
 */
public final class SimMachineApi {
  private final Object lock = new Object();
  private final Map<String, Machine> machines = new TreeMap<>();
  private final List<Watch> watches = new ArrayList<>();
  private final Executor delivery;
  private long revision;
  private boolean machineTypeInstalled = true;
  private boolean watchesLost;
  private int conflictsToInject;

  private SimMachineApi(Executor delivery) {
    this.delivery = delivery;
  }

  /** A server that delivers watch events on threads of its own, as a real client does. */
  public static SimMachineApi create() {
    ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
      Thread t = new Thread(runnable, "simulated-machine-watch");
      t.setDaemon(true);
      return t;
    });
    return new SimMachineApi(threads);
  }

  /**
   * A server that delivers watch events through {@code delivery}; {@code Runnable::run} delivers on
   * the thread that made the change (still one at a time per watch), which keeps a simulation
   * deterministic.
   */
  public static SimMachineApi createWithDelivery(Executor delivery) {
    return new SimMachineApi(delivery);
  }

  /** A new connection for one node. */
  public SimMachineResource client() {
    return new SimMachineResource(this);
  }

  // ---- the cluster's side ----

  /** Removes the Machine CRD: every call of every client fails with NO_MACHINE_RESOURCE_TYPE. */
  public void removeMachineType() {
    synchronized (lock) {
      machineTypeInstalled = false;
    }
  }

  /** The Machine as stored, without a request of any node. */
  public Optional<Machine> machine(String name) {
    synchronized (lock) {
      return Optional.ofNullable(machines.get(name));
    }
  }

  /** Every Machine, by name. */
  public List<Machine> machines() {
    synchronized (lock) {
      return List.copyOf(machines.values());
    }
  }

  /** Creates the Machine, or replaces its spec (its status stays), as {@code kubectl apply} would. */
  public Machine put(String name, MachineSpec spec) {
    MachineNames.check(name);
    synchronized (lock) {
      Machine current = machines.get(name);
      Machine next = new Machine(
          name, nextVersion(), spec, current == null ? MachineStatus.EMPTY : current.status());
      store(next, current == null ? MachineEvent.Kind.ADDED : MachineEvent.Kind.MODIFIED);
      return next;
    }
  }

  /** Changes the spec of an existing Machine (a fleet bumping a counter). */
  public Machine updateSpec(String name, UnaryOperator<MachineSpec> change) {
    synchronized (lock) {
      Machine current = existing(name);
      Machine next =
          new Machine(name, nextVersion(), change.apply(current.spec()), current.status());
      store(next, MachineEvent.Kind.MODIFIED);
      return next;
    }
  }

  /** Writes the status as another writer does, unconditionally (a controller of the cluster). */
  public Machine writeStatus(String name, UnaryOperator<MachineStatus> change) {
    synchronized (lock) {
      Machine current = existing(name);
      Machine next =
          new Machine(name, nextVersion(), current.spec(), change.apply(current.status()));
      store(next, MachineEvent.Kind.MODIFIED);
      return next;
    }
  }

  /** Deletes the Machine; its watches see DELETED. */
  public void delete(String name) {
    synchronized (lock) {
      Machine gone = machines.remove(name);
      if (gone != null) {
        revision++;
        notifyWatches(new MachineEvent(MachineEvent.Kind.DELETED, gone));
      }
    }
  }

  /** The next {@code n} status writes of any client meet a conflict, as if another writer came first. */
  public void conflictOnNextStatusWrites(int n) {
    synchronized (lock) {
      conflictsToInject = n;
    }
  }

  /** Every watch loses its connection: changes from now on reach none of them until restored. */
  public void loseWatches() {
    synchronized (lock) {
      watchesLost = true;
    }
  }

  /**
   * The watches' connections come back: each re-reads its Machine and delivers RESYNCED with it
   * (or DELETED when it is gone), as the real adapter does after a lost watch.
   */
  public void restoreWatches() {
    synchronized (lock) {
      watchesLost = false;
      watches.forEach(this::resync);
    }
  }

  /** The periodic resync every watch does, now: each re-reads its Machine and delivers RESYNCED. */
  public void resyncWatches() {
    synchronized (lock) {
      if (!watchesLost) {
        watches.forEach(this::resync);
      }
    }
  }

  /** How many watches are open. */
  public int openWatches() {
    synchronized (lock) {
      return watches.size();
    }
  }

  // ---- what the clients ask ----

  Optional<Machine> read(String name) throws MachineResourceException {
    synchronized (lock) {
      requireType(name);
      return Optional.ofNullable(machines.get(name));
    }
  }

  boolean createIfAbsent(String name, MachineSpec spec) throws MachineResourceException {
    synchronized (lock) {
      requireType(name);
      if (machines.containsKey(name)) {
        return false;
      }
      store(new Machine(name, nextVersion(), spec, MachineStatus.EMPTY), MachineEvent.Kind.ADDED);
      return true;
    }
  }

  /** Writes {@code status} when the Machine is still at {@code read}'s version; empty on a conflict. */
  Optional<Machine> writeStatusIfUnchanged(Machine read, MachineStatus status)
      throws MachineResourceException {
    synchronized (lock) {
      requireType(read.name());
      Machine current = machines.get(read.name());
      if (current == null) {
        throw new MachineResourceException(
            MachineResourceException.Kind.NOT_FOUND,
            read.name(),
            "machines \"" + read.name() + "\" not found");
      }
      if (conflictsToInject > 0) {
        conflictsToInject--;
        return Optional.empty();
      }
      if (!current.resourceVersion().equals(read.resourceVersion())) {
        return Optional.empty();
      }
      Machine next = new Machine(read.name(), nextVersion(), current.spec(), status);
      store(next, MachineEvent.Kind.MODIFIED);
      return Optional.of(next);
    }
  }

  MachineWatch startWatch(String name, MachineListener listener, SimMachineResource client)
      throws MachineResourceException {
    synchronized (lock) {
      requireType(name);
      Watch watch = new Watch(name, new SerialDelivery(listener, delivery), client);
      watches.add(watch);
      Machine current = machines.get(name);
      if (current != null) {
        watch.seen = true;
        watch.delivery.offer(new MachineEvent(MachineEvent.Kind.ADDED, current));
      }
      return watch;
    }
  }

  private void requireType(String name) throws MachineResourceException {
    if (!machineTypeInstalled) {
      throw new MachineResourceException(
          MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE,
          name,
          "the server could not find the requested resource (machines.unbounded-cloud.io/v1alpha3"
              + " is not served: is the Machine CRD installed?)");
    }
  }

  private Machine existing(String name) {
    Machine current = machines.get(name);
    if (current == null) {
      throw new IllegalStateException("no Machine " + name);
    }
    return current;
  }

  private String nextVersion() {
    return Long.toString(++revision);
  }

  private void store(Machine machine, MachineEvent.Kind kind) {
    machines.put(machine.name(), machine);
    notifyWatches(new MachineEvent(kind, machine));
  }

  private void notifyWatches(MachineEvent event) {
    if (watchesLost) {
      return;
    }
    for (Watch watch : watches) {
      if (watch.name.equals(event.machine().name())) {
        watch.seen = event.kind() != MachineEvent.Kind.DELETED;
        watch.delivery.offer(event);
      }
    }
  }

  private void resync(Watch watch) {
    watch.client.countRequest();
    Machine current = machines.get(watch.name);
    if (current != null) {
      watch.seen = true;
      watch.delivery.offer(new MachineEvent(MachineEvent.Kind.RESYNCED, current));
    } else if (watch.seen) {
      watch.seen = false;
      watch.delivery.offer(new MachineEvent(
          MachineEvent.Kind.DELETED,
          new Machine(watch.name, "", MachineSpec.EMPTY, MachineStatus.EMPTY)));
    }
  }

  private final class Watch implements MachineWatch {
    private final String name;
    private final SerialDelivery delivery;
    private final SimMachineResource client;
    private boolean seen;

    private Watch(String name, SerialDelivery delivery, SimMachineResource client) {
      this.name = name;
      this.delivery = delivery;
      this.client = client;
    }

    @Override
    public void close() {
      synchronized (lock) {
        watches.remove(this);
      }
      delivery.close();
    }
  }
}
