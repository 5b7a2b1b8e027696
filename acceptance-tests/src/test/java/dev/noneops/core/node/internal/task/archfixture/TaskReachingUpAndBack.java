package dev.noneops.core.node.internal.task.archfixture;

import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeStatus;
import dev.noneops.core.node.internal.upgrade.Upgrade;

/** A feature class that reaches a later feature and the API above it; the rules must catch both. */
public final class TaskReachingUpAndBack {
  private TaskReachingUpAndBack() {}

  public static String describe(Node node, NodeStatus status, Upgrade upgrade) {
    return node + " " + status + " " + upgrade;
  }
}
