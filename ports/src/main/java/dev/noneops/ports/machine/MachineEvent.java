package dev.noneops.ports.machine;

import java.util.Objects;

/** What happened to a watched Machine, and the object as it is after it. */
public record MachineEvent(Kind kind, Machine machine) {

  /** The kind of event. */
  public enum Kind {
    /** The Machine exists: it did when the watch started, or it was just created. */
    ADDED,
    /** The Machine changed. */
    MODIFIED,
    /** The Machine was removed; {@link #machine()} is its last state. */
    DELETED,
    /** The port read the Machine again (a resumed watch, a periodic resync): its current state. */
    RESYNCED
  }

  public MachineEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(machine, "machine");
  }
}
