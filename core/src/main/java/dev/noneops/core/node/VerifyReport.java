package dev.noneops.core.node;

import java.util.List;

/**
 * Installed versions checked against their manifests: every file's size, mode and SHA-256 (see
 * {@link NodeInspection#verify(List)}).
 *
 * @param ok whether every version checked is verified
 * @param versions the verdict on each version, in the order asked
 */
public record VerifyReport(boolean ok, List<Verdict> versions) {

  /**
   * One version's verdict.
   *
   * @param state {@code VERIFIED}, {@code CORRUPT}, {@code INCOMPLETE} or {@code ABSENT}
   * @param problems what differs from the manifest, one line each
   */
  public record Verdict(String version, String state, boolean verified, List<String> problems) {}
}
