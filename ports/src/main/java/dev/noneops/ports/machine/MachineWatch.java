package dev.noneops.ports.machine;

/** A watch started by {@link MachineResource#watch}; closing it stops the events. */
public interface MachineWatch extends AutoCloseable {

  /** Stops the watch: no event is delivered once this returns. Closing twice does nothing. */
  @Override
  void close();
}
