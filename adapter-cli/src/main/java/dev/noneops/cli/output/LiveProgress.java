package dev.noneops.cli.output;

import dev.noneops.ports.events.NodeEvents;

/**
 * Progress that holds the terminal while it shows: closing it clears what is drawn in place and
 * gives the terminal back as it was, before the command prints its result or its error.
 */
public interface LiveProgress extends NodeEvents, AutoCloseable {
  /** Clears the in-place lines and releases the terminal; never throws. */
  @Override
  void close();
}
