package dev.noneops.ports.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the node reports about its Machine: its phase, the operation counters it last acted on, and
 * its conditions (at most one per type, in the order the object lists them).
 */
public record MachineStatus(
    MachinePhase phase, MachineOperations operations, List<MachineCondition> conditions) {

  /** A status nothing has been reported in yet. */
  public static final MachineStatus EMPTY =
      new MachineStatus(MachinePhase.UNSET, MachineOperations.NONE, List.of());

  public MachineStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(operations, "operations");
    conditions = List.copyOf(conditions);
    if (conditions.stream().map(MachineCondition::type).distinct().count() != conditions.size()) {
      throw new IllegalArgumentException("two conditions of one type: " + conditions);
    }
  }

  public MachineStatus withPhase(MachinePhase value) {
    return new MachineStatus(value, operations, conditions);
  }

  public MachineStatus withOperations(MachineOperations value) {
    return new MachineStatus(phase, value, conditions);
  }

  /** The condition of {@code type}, if the status has one. */
  public Optional<MachineCondition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  /**
   * This status with {@code condition} in place of the one of its type (appended when there was
   * none). Its transition time is kept from the one it replaces when the status word did not
   * change, as Kubernetes conditions keep it.
   */
  public MachineStatus withCondition(MachineCondition condition) {
    List<MachineCondition> next = new ArrayList<>(conditions.size() + 1);
    boolean replaced = false;
    for (MachineCondition c : conditions) {
      if (c.type().equals(condition.type())) {
        next.add(
            c.status() == condition.status()
                ? new MachineCondition(
                    condition.type(),
                    condition.status(),
                    condition.reason(),
                    condition.message(),
                    c.lastTransitionTime())
                : condition);
        replaced = true;
      } else {
        next.add(c);
      }
    }
    if (!replaced) {
      next.add(condition);
    }
    return new MachineStatus(phase, operations, next);
  }
}
