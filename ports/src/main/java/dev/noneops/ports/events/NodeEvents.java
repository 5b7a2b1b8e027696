package dev.noneops.ports.events;

/**
 * Receives the node's structured events. Called synchronously on the working thread, so an
 * implementation must be quick and must not throw.
 */
@FunctionalInterface
public interface NodeEvents {
  NodeEvents NONE = event -> {};

  void onEvent(NodeEvent event);
}
