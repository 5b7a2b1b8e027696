package dev.noneops.ports.machine;

/**
 * {@code operations} of a spec or a status: a repave or reboot is asked for by raising the spec's
 * counter above the status's, which holds the last value the node acted on.
 */
public record MachineOperations(long repaveCounter, long rebootCounter) {

  /** Both counters zero. */
  public static final MachineOperations NONE = new MachineOperations(0, 0);

  public MachineOperations {
    if (repaveCounter < 0 || rebootCounter < 0) {
      throw new IllegalArgumentException("operation counters are never negative: repave "
          + repaveCounter + ", reboot " + rebootCounter);
    }
  }

  public MachineOperations withRepaveCounter(long value) {
    return new MachineOperations(value, rebootCounter);
  }

  public MachineOperations withRebootCounter(long value) {
    return new MachineOperations(repaveCounter, value);
  }
}
