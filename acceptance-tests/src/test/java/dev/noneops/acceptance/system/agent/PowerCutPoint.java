package dev.noneops.acceptance.system.agent;

import java.util.List;
import java.util.Set;

/**
 * A point of an upgrade (or of its rollback) at which the power-cut suite cuts a sandbox's power:
 * when the upgrade's progress stream ({@code upgrade --json}) reports {@code kind} for
 * {@code task}, and what the reboot must then end on.
 *
 * @param name the point's name in the suite's table
 * @param task the upgrade task whose event triggers the cut
 * @param kind the event's kind, {@code COMPLETED} or {@code STARTED}
 * @param neverHealthy whether the upgrade's target is the version whose kubelet never answers
 * @param bootsTarget whether the reboot ends on the target (else on the previous version)
 * @param outcomes the recovery gate's outcomes that fit the point (a cut lands a few milliseconds
 *     after its event, so the next step may have begun)
 * @param inCi whether {@code mvn verify} runs it (all points run with {@value #ALL_PROPERTY})
 */
record PowerCutPoint(
    String name,
    String task,
    String kind,
    boolean neverHealthy,
    boolean bootsTarget,
    Set<String> outcomes,
    boolean inCi) {
  /** The system property that runs every point: {@code -Dnoneops.powercuts=all}. */
  static final String ALL_PROPERTY = "noneops.powercuts";

  static final List<PowerCutPoint> ALL = List.of(
      previous("after-save-configuration", "upgrade-save-configuration", false, false)
          .withOutcomes("NOTHING_TO_DO", "ROLLED_BACK"),
      previous("after-journal", "upgrade-write-journal", false, true),
      previous("after-configuration-write", "upgrade-write-configuration", false, false),
      previous("after-stack-stopped", "upgrade-stop-stack", false, false),
      previous("after-flip", "upgrade-switch-current", false, false),
      previous("after-flip-never-ready", "upgrade-switch-current", true, true),
      previous("target-starting", "start-units", false, true),
      new PowerCutPoint(
          "after-applied-persisted",
          "record-applied-config",
          "COMPLETED",
          false,
          true,
          Set.of("COMMITTED", "NOTHING_TO_DO"),
          true),
      new PowerCutPoint(
          "during-commit",
          "commit-drop-saved-configuration",
          "COMPLETED",
          false,
          true,
          Set.of("COMMITTED", "NOTHING_TO_DO"),
          false),
      previous("rollback-after-flip-back", "rollback-switch-current", true, false)
          .withOutcomes("ROLLED_BACK", "ROLLBACK_FINISHED"),
      previous("rollback-files-restored", "rollback-restore-saved-configuration", true, false)
          .withOutcomes("ROLLED_BACK", "ROLLBACK_FINISHED"));

  private static PowerCutPoint previous(
      String name, String task, boolean neverHealthy, boolean inCi) {
    return new PowerCutPoint(
        name, task, "COMPLETED", neverHealthy, false, Set.of("ROLLED_BACK"), inCi);
  }

  private PowerCutPoint withOutcomes(String... fitting) {
    return new PowerCutPoint(name, task, kind, neverHealthy, bootsTarget, Set.of(fitting), inCi);
  }

  /** The points this run cuts at: all with {@code -Dnoneops.powercuts=all}, else the CI share. */
  static List<PowerCutPoint> selected() {
    boolean all = "all".equals(System.getProperty(ALL_PROPERTY, ""));
    return ALL.stream().filter(p -> all || p.inCi()).toList();
  }

  @Override
  public String toString() {
    return name;
  }
}
