package dev.noneops.ports.cluster;

/**
 * A Node object as the API server holds it: its name, whether kubelet reports it {@code Ready}
 * (its {@code Ready} condition is {@code True}) and whether it is cordoned ({@code
 * spec.unschedulable}).
 */
public record NodeObject(String name, boolean ready, boolean unschedulable) {

  public NodeObject {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a Node needs a name");
    }
  }
}
