package dev.noneops.ports.machine;

import java.util.Objects;

/**
 * A Machine as the API server holds it: its name, the {@code resourceVersion} of this state (an
 * opaque word, compared only for equality), its spec and its status.
 */
public record Machine(String name, String resourceVersion, MachineSpec spec, MachineStatus status) {

  public Machine {
    MachineNames.check(name);
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
  }
}
