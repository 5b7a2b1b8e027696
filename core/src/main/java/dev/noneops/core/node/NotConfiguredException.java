package dev.noneops.core.node;

/** An operation needs the node's goal state, but the node was created without a configuration. */
public final class NotConfiguredException extends NodeException {
  private static final long serialVersionUID = 1L;

  public NotConfiguredException(String operation) {
    super(operation + " needs a configuration or a resolved goal state, and this node has neither");
  }
}
