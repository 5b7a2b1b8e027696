package dev.noneops.testkit.machine;

import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachineNames;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * One node's connection to a {@link SimMachineApi}: the {@link MachineResource} port as the
 * real adapter implements it, with the API requests it made counted.
 */
public final class SimMachineResource implements MachineResource {
  /** As many attempts as the real adapter makes before a status write gives up on conflicts. */
  public static final int STATUS_WRITE_ATTEMPTS = 5;

  private final SimMachineApi api;
  private final AtomicLong requests = new AtomicLong();

  SimMachineResource(SimMachineApi api) {
    this.api = api;
  }

  /** The API requests this client has made: reads, writes, watch starts and re-reads. */
  public long requests() {
    return requests.get();
  }

  void countRequest() {
    requests.incrementAndGet();
  }

  @Override
  public Optional<Machine> get(String name) throws IOException {
    MachineNames.check(name);
    countRequest();
    return api.read(name);
  }

  @Override
  public boolean create(String name, MachineSpec spec) throws IOException {
    MachineNames.check(name);
    countRequest();
    return api.createIfAbsent(name, spec);
  }

  @Override
  public MachineWatch watch(String name, MachineListener listener) throws IOException {
    MachineNames.check(name);
    countRequest();
    return api.startWatch(name, listener, this);
  }

  @Override
  public Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation)
      throws IOException {
    MachineNames.check(name);
    for (int attempt = 1; attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
      countRequest();
      Machine current = api.read(name)
          .orElseThrow(() -> new MachineResourceException(
              MachineResourceException.Kind.NOT_FOUND,
              name,
              "machines \"" + name + "\" not found"));
      MachineStatus next = mutation.apply(current.status());
      if (next.equals(current.status())) {
        return current;
      }
      countRequest();
      Optional<Machine> written = api.writeStatusIfUnchanged(current, next);
      if (written.isPresent()) {
        return written.get();
      }
    }
    throw new MachineResourceException(
        MachineResourceException.Kind.CONFLICT,
        name,
        "Operation cannot be fulfilled on machines \"" + name + "\": the object has been modified ("
            + STATUS_WRITE_ATTEMPTS + " attempts)");
  }
}
