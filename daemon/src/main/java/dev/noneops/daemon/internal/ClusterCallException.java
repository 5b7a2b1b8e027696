package dev.noneops.daemon.internal;

import dev.noneops.core.NoneopsException;

/**
 * A call about the node's Node object or its pods failed: the API server refused it or could not
 * be reached. The message says which call and why; the cause is the port's {@code
 * ClusterNodeException}.
 */
public final class ClusterCallException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  public ClusterCallException(String message, Throwable cause) {
    super(message, cause);
  }
}
