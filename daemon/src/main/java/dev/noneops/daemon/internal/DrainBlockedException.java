package dev.noneops.daemon.internal;

import dev.noneops.core.NoneopsException;
import java.util.List;

/**
 * The drain reached its bound with pods still on the node: evictions a PodDisruptionBudget kept
 * refusing, or evicted pods that did not go. The node was uncordoned again; the message names
 * every such pod and why it stayed.
 */
public final class DrainBlockedException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final List<String> blocking;

  public DrainBlockedException(String message, List<String> blocking) {
    super(message);
    this.blocking = List.copyOf(blocking);
  }

  /** The pods that stayed, as {@code namespace/name}. */
  public List<String> blocking() {
    return blocking;
  }
}
