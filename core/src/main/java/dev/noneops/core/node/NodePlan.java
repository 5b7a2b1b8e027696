package dev.noneops.core.node;

import dev.noneops.core.goalstate.Artifact;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What bringing the node to its configuration would change, found without changing anything
 * (see {@link Node#plan()}): the shared host files that would be created, changed or removed,
 * the units and drop-ins among them, the services that would be started or restarted (in that
 * order), and the artifacts that would be downloaded.
 *
 * @param action bootstrap (nothing active), apply (the active version is the target) or upgrade
 * @param targetVersion the version the configuration needs
 * @param activeVersion the version {@code current} points at; empty before a bootstrap
 * @param targetInstalled whether the target version is installed and verified
 * @param configurationChanged whether the configuration differs from the applied one (or none is
 *     recorded)
 * @param created paths that do not exist yet and would be written (files, links, directories)
 * @param changed existing paths whose content, mode or link target would be rewritten
 * @param removed paths this node wrote before that would be removed
 * @param takenOver existing paths with something of the host's that the node would take over:
 *     saved first, and put back as they were when the node is reset
 * @param units the unit files and drop-ins among {@code created} and {@code changed}
 * @param starts the services that would be started, in start order (the stack is not running)
 * @param restarts the services that would be restarted, in restart order
 * @param downloads the artifacts that would be downloaded (empty when the target is installed)
 * @param notes what the lists cannot say, one sentence each: an upgrade in flight first, that
 *     there is nothing to do last
 */
public record NodePlan(
    Action action,
    String targetVersion,
    Optional<String> activeVersion,
    boolean targetInstalled,
    boolean configurationChanged,
    List<Path> created,
    List<Path> changed,
    List<Path> removed,
    List<Path> takenOver,
    List<Path> units,
    List<String> starts,
    List<String> restarts,
    List<Artifact> downloads,
    List<String> notes) {

  /** Which operation the configuration calls for. */
  public enum Action {
    BOOTSTRAP,
    APPLY,
    UPGRADE;

    /** The CLI command that performs it. */
    public String command() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public NodePlan {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(targetVersion, "targetVersion");
    Objects.requireNonNull(activeVersion, "activeVersion");
    created = List.copyOf(created);
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
    takenOver = List.copyOf(takenOver);
    units = List.copyOf(units);
    starts = List.copyOf(starts);
    restarts = List.copyOf(restarts);
    downloads = List.copyOf(downloads);
    notes = List.copyOf(notes);
  }

  /** Whether applying would change no file and start or restart nothing. */
  public boolean nothingToDo() {
    return created.isEmpty()
        && changed.isEmpty()
        && removed.isEmpty()
        && starts.isEmpty()
        && restarts.isEmpty()
        && downloads.isEmpty();
  }
}
