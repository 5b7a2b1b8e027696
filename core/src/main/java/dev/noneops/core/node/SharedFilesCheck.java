package dev.noneops.core.node;

import dev.noneops.core.node.Node.NodePlan;
import dev.noneops.core.node.Node.PreflightReport.Check;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Files of the host's own at the shared paths the node writes, as {@link Node#plan()} finds
 * them: bootstrap takes them over (saves each, and reset puts it back), which is worth knowing
 * before, so a warning.
 */
final class SharedFilesCheck implements PreflightCheck {
  private static final int LISTED = 5;

  private final Supplier<NodePlan> plan;

  SharedFilesCheck(Supplier<NodePlan> plan) {
    this.plan = plan;
  }

  @Override
  public String name() {
    return "shared-files";
  }

  @Override
  public Check run() {
    List<Path> takenOver = plan.get().takenOver();
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
}
