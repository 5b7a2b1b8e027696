package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.internal.phases.PhaseContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Files of the host's own at the shared paths the node writes, as the node's plan finds
 * them: bootstrap takes them over (saves each, and reset puts it back), which is worth knowing
 * before, so a warning.
 */
public final class SharedFilesCheck implements PreflightCheck {
  private static final int LISTED = 5;

  private final Supplier<List<Path>> takenOver;
  private final PhaseContext node;

  /**
   * @param takenOver the host's own files at the shared paths the node's configuration writes
   * @param node the node, whose agent (when it installs one) links its command on {@code PATH}
   */
  public SharedFilesCheck(Supplier<List<Path>> takenOver, PhaseContext node) {
    this.takenOver = takenOver;
    this.node = node;
  }

  @Override
  public String name() {
    return "shared-files";
  }

  @Override
  public CheckOutcome run() throws IOException {
    List<Path> takenOver = new ArrayList<>(this.takenOver.get());
    takenOver.addAll(agentCommandTakenOver());
    if (takenOver.isEmpty()) {
      return ok("nothing of the host's own at the paths the node writes");
    }
    String listed =
        takenOver.stream().limit(LISTED).map(Path::toString).collect(Collectors.joining(", "));
    String more = takenOver.size() > LISTED ? " and " + (takenOver.size() - LISTED) + " more" : "";
    return warn(
        takenOver.size() + " of the host's files would be taken over: " + listed + more,
        "none needed: each is saved and put back at reset; 'noneops plan' lists them all");
  }

  /**
   * The agent's command on {@code PATH} when the node installs its agent and a file of the host's
   * own (one the ownership record does not name) is there: bootstrap saves it and links its own.
   */
  private List<Path> agentCommandTakenOver() throws IOException {
    if (node.params().agent().isEmpty()) {
      return List.of();
    }
    Path command = node.paths().agentCommand();
    if (node.ports().files().lstat(command).isEmpty() || node.ownership().load().owns(command)) {
      return List.of();
    }
    return List.of(command);
  }
}
