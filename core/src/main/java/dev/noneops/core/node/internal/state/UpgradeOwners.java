package dev.noneops.core.node.internal.state;

import dev.noneops.core.node.internal.state.UpgradeRecord.Owner;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessTable;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Who owns an upgrade: the process that runs one records itself ({@link #self()}) in the journal,
 * and an upgrade whose owner {@link #isGone gone} is one that was interrupted. An owner is gone
 * when this is another boot, or no process with its pid and start time exists in this one.
 */
public final class UpgradeOwners {
  private final ProcessTable processes;
  private final HostFacts facts;

  public UpgradeOwners(ProcessTable processes, HostFacts facts) {
    this.processes = Objects.requireNonNull(processes, "processes");
    this.facts = Objects.requireNonNull(facts, "facts");
  }

  /** This process, in this boot. */
  public Owner self() throws IOException {
    ProcessIdentity self = processes.self();
    return new Owner(self.pid(), self.startTime(), facts.bootId());
  }

  /** Whether {@code owner} is this process. */
  public boolean isSelf(Owner owner) throws IOException {
    return self().equals(owner);
  }

  /** Whether {@code owner} no longer runs: another boot, or no such process in this one. */
  public boolean isGone(Owner owner) throws IOException {
    if (!facts.bootId().equals(owner.bootId())) {
      return true;
    }
    return !processes
        .identity(owner.pid())
        .equals(Optional.of(new ProcessIdentity(owner.pid(), owner.startTime())));
  }
}
