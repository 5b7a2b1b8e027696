package dev.noneops.ports.machine;

/** Receives the events of a {@link MachineResource#watch}, one at a time. */
@FunctionalInterface
public interface MachineListener {

  /** One event about the watched Machine. */
  void onEvent(MachineEvent event);
}
