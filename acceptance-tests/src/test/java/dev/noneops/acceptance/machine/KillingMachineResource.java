package dev.noneops.acceptance.machine;

import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import java.io.IOException;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A {@link MachineResource} whose agent is killed at a status write: right after the write that
 * reports {@code afterWriting}, or right before the one that would report {@code beforeWriting}.
 */
final class KillingMachineResource implements MachineResource {
  private final MachineResource delegate;
  private final Optional<MachinePhase> afterWriting;
  private final Optional<MachinePhase> beforeWriting;

  private KillingMachineResource(
      MachineResource delegate,
      Optional<MachinePhase> afterWriting,
      Optional<MachinePhase> beforeWriting) {
    this.delegate = delegate;
    this.afterWriting = afterWriting;
    this.beforeWriting = beforeWriting;
  }

  static KillingMachineResource afterWriting(MachineResource delegate, MachinePhase phase) {
    return new KillingMachineResource(delegate, Optional.of(phase), Optional.empty());
  }

  static KillingMachineResource beforeWriting(MachineResource delegate, MachinePhase phase) {
    return new KillingMachineResource(delegate, Optional.empty(), Optional.of(phase));
  }

  @Override
  public Optional<Machine> get(String name) throws IOException {
    return delegate.get(name);
  }

  @Override
  public boolean create(String name, MachineSpec spec) throws IOException {
    return delegate.create(name, spec);
  }

  @Override
  public MachineWatch watch(String name, MachineListener listener) throws IOException {
    return delegate.watch(name, listener);
  }

  @Override
  public Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation)
      throws IOException {
    if (beforeWriting.isPresent()) {
      MachineStatus next = mutation.apply(delegate.get(name).orElseThrow().status());
      if (next.phase() == beforeWriting.get()) {
        throw new AgentKilled("before the status write reporting " + next.phase());
      }
    }
    Machine written = delegate.updateStatus(name, mutation);
    if (afterWriting.isPresent() && written.status().phase() == afterWriting.get()) {
      throw new AgentKilled(
          "after the status write reporting " + written.status().phase());
    }
    return written;
  }
}
