package dev.noneops.daemon.internal;

import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drains the node as {@code kubectl drain} does: cordons it, then evicts every pod bound to it but
 * DaemonSet and mirror pods through the Eviction API, retrying the evictions a
 * PodDisruptionBudget refuses, and waits until the evicted pods are gone — all within {@link
 * RepaveOptions#drain()}. On the bound it uncordons the node and throws {@link
 * DrainBlockedException} naming the pods that stayed; a call the API server refuses or cannot be
 * asked ends the drain with the node uncordoned as well ({@link ClusterCallException}). Only the
 * drain's own cordon is undone: a node that was cordoned before the repave stays cordoned. A Node
 * object that does not exist (an interrupted repave already removed it) cannot be cordoned; its
 * pods are still evicted.
 */
public final class NodeDrain {
  private final ClusterNode cluster;
  private final HostClock clock;
  private final RepaveOptions timeouts;
  private boolean cordonedBefore;

  public NodeDrain(ClusterNode cluster, HostClock clock, RepaveOptions timeouts) {
    this.cluster = cluster;
    this.clock = clock;
    this.timeouts = timeouts;
  }

  /**
   * Drains {@code node}.
   *
   * @param cordonedBefore whether the node was cordoned before the repave began: that cordon is
   *     not the drain's to undo
   * @return how many pods were evicted
   * @throws DrainBlockedException on the bound, the node uncordoned unless it was cordoned before
   * @throws ClusterCallException when the API server refuses a call or cannot be reached
   */
  public int drain(String node, boolean cordonedBefore) {
    this.cordonedBefore = cordonedBefore;
    // the cordon to undo should the drain not finish: the drain's own, never an operator's
    boolean cordoned = cordon(node) && !cordonedBefore;
    try {
      return evictAll(node, cordoned);
    } catch (ClusterCallException e) {
      if (cordoned) {
        // a drain that cannot go on leaves the node as it found it; the repave tries again
        try {
          cluster.uncordon(node);
        } catch (IOException uncordonFailed) {
          e.addSuppressed(uncordonFailed);
        }
      }
      throw e;
    }
  }

  private int evictAll(String node, boolean cordoned) {
    long deadline = clock.nanoTime() + timeouts.drain().toNanos();
    Set<String> evicted = new HashSet<>();
    Map<String, String> refused = new LinkedHashMap<>();
    while (true) {
      List<PodOnNode> left = new ArrayList<>();
      for (PodOnNode pod : call(() -> cluster.podsOn(node), "list the pods of " + node)) {
        if (pod.evictable()) {
          left.add(pod);
        }
      }
      if (left.isEmpty()) {
        return evicted.size();
      }
      refused.keySet().retainAll(left.stream().map(PodOnNode::ref).toList());
      for (PodOnNode pod : left) {
        if (evicted.contains(pod.ref())) {
          continue;
        }
        Eviction answer = call(() -> cluster.evict(pod), "evict " + pod.ref());
        if (answer.outcome() == Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET) {
          refused.put(pod.ref(), answer.message());
        } else {
          refused.remove(pod.ref());
          evicted.add(pod.ref());
        }
      }
      if (clock.nanoTime() - deadline >= 0) {
        throw blocked(node, cordoned, left, evicted, refused);
      }
      sleep(timeouts.poll());
    }
  }

  private DrainBlockedException blocked(
      String node,
      boolean cordoned,
      List<PodOnNode> left,
      Set<String> evicted,
      Map<String, String> refused) {
    List<String> blocking = new ArrayList<>();
    List<String> why = new ArrayList<>();
    for (PodOnNode pod : left) {
      blocking.add(pod.ref());
      String reason = refused.get(pod.ref());
      if (reason != null) {
        why.add(pod.ref() + " (eviction refused by a PodDisruptionBudget: " + reason + ")");
      } else if (evicted.contains(pod.ref())) {
        why.add(pod.ref() + " (evicted, still terminating)");
      } else {
        why.add(pod.ref());
      }
    }
    if (cordoned) {
      call(
          () -> {
            cluster.uncordon(node);
            return null;
          },
          "uncordon " + node);
    }
    return new DrainBlockedException(
        "the drain of " + node + " did not finish within " + timeouts.drain() + ": "
            + String.join("; ", why)
            + (cordonedBefore
                ? "; the node stays cordoned (it was cordoned before the repave)"
                : "; the node is uncordoned")
            + " and nothing on the host changed",
        blocking);
  }

  /** @return whether the Node existed and is cordoned now (by this drain or before it) */
  private boolean cordon(String node) {
    try {
      cluster.cordon(node);
      return true;
    } catch (ClusterNodeException e) {
      if (e.kind() == ClusterNodeException.Kind.NOT_FOUND) {
        return false;
      }
      throw new ClusterCallException("cannot cordon " + node + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ClusterCallException("cannot cordon " + node + ": " + e.getMessage(), e);
    }
  }

  private void sleep(Duration d) {
    try {
      clock.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClusterCallException("interrupted while draining", e);
    }
  }

  public interface Call<T> {
    T run() throws IOException;
  }

  public static <T> T call(Call<T> call, String what) {
    try {
      return call.run();
    } catch (IOException e) {
      throw new ClusterCallException("cannot " + what + ": " + e.getMessage(), e);
    }
  }
}
