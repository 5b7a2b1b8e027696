package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;

/**
 * There is no node on this host (no layout at {@code layout}): an operation that needs one was
 * refused before it changed anything. Only {@code bootstrap} creates a node.
 */
public class NodeAbsentException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient Path layout;
  private final String operation;

  public NodeAbsentException(Path layout, String operation) {
    super("no node on this host (no " + layout + "): cannot " + operation
        + "; run 'noneops bootstrap' first; nothing was changed");
    this.layout = layout;
    this.operation = operation;
  }

  /** The layout directory that does not exist. */
  public Path layout() {
    return layout;
  }

  /** The operation that was refused. */
  public String operation() {
    return operation;
  }
}
