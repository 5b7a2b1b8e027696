package dev.noneops.acceptance.architecture.leakfixture;

import java.util.List;
import java.util.Optional;

/** An API that leaks, for the check that finds leaks to prove itself on. */
public final class LeakingApi {
  static final class Hidden {}

  /** Names a package-private type. */
  public Optional<Hidden> hidden() {
    return Optional.empty();
  }

  /** Names a type of a package that is not exported. */
  public List<? extends Class<dev.noneops.core.node.internal.task.Task>> internals() {
    return List.of();
  }

  /** Names only what a caller can name. */
  public List<String> fine() {
    return List.of();
  }
}
