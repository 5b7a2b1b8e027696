package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.Artifact.Checksum.Published;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.download.ArtifactDownloader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The artifacts the goal's version needs answer where the configuration says they are: one
 * bounded {@code HEAD} request each (and each published checksum document), none once a host did
 * not answer. Nothing to check when the version is installed and verified.
 */
public final class ArtifactSourcesCheck implements PreflightCheck {
  /** How long one {@code HEAD} request may take. */
  public static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final ArtifactDownloader downloads;
  private final VersionVerifier verifier;
  private final MachineGoalState goal;

  public ArtifactSourcesCheck(
      ArtifactDownloader downloads, VersionVerifier verifier, MachineGoalState goal) {
    this.downloads = downloads;
    this.verifier = verifier;
    this.goal = goal;
  }

  @Override
  public String name() {
    return "artifact-sources";
  }

  @Override
  public CheckOutcome run() throws IOException {
    String version = goal.rootFs().versionName();
    if (verifier.verifyTrustingStamps(version).verified()) {
      return ok(version + " is installed and verified; nothing to download");
    }
    Map<String, URI> urls = new LinkedHashMap<>();
    Set<String> optional = new HashSet<>();
    for (Artifact artifact : goal.rootFs().artifacts()) {
      urls.put(artifact.name(), artifact.url());
      if (artifact.checksum() instanceof Published published) {
        urls.put(artifact.name() + " checksum", published.url());
        if (published.unverifiedAllowed()) {
          optional.add(artifact.name() + " checksum");
        }
      }
    }
    List<String> failed = new ArrayList<>();
    List<String> warned = new ArrayList<>();
    Set<String> silentHosts = new HashSet<>();
    int notAsked = 0;
    for (Map.Entry<String, URI> entry : urls.entrySet()) {
      URI url = entry.getValue();
      if (silentHosts.contains(String.valueOf(url.getHost()))) {
        notAsked++;
        continue;
      }
      String problem = problem(url, silentHosts);
      if (!problem.isEmpty()) {
        (optional.contains(entry.getKey()) ? warned : failed).add(entry.getKey() + ": " + problem);
      }
    }
    String skipped = notAsked == 0
        ? ""
        : "; " + notAsked + " more URL" + (notAsked == 1 ? "" : "s")
            + " on hosts that did not answer not asked";
    if (!failed.isEmpty()) {
      return fail(
          String.join("; ", failed) + skipped,
          "check the network and the Downloads of the configuration (a mirror, a proxy)");
    }
    if (!warned.isEmpty()) {
      return warn(
          String.join("; ", warned) + skipped,
          "these artifacts are installed unverified (AllowUnverified)");
    }
    return ok(urls.size() + " URLs answer (" + String.join(", ", hosts(urls)) + ")");
  }

  /** Why {@code url} is not usable; empty when it answers 2xx. A host that does not answer is noted. */
  private String problem(URI url, Set<String> silentHosts) throws IOException {
    try {
      int status = downloads.head(url, TIMEOUT);
      return status >= 200 && status < 300 ? "" : "HTTP " + status + " at " + url;
    } catch (IOException e) {
      if (e instanceof InterruptedIOException) {
        throw e;
      }
      silentHosts.add(String.valueOf(url.getHost()));
      String why = String.valueOf(e.getMessage());
      String prefix = "download " + url + ": ";
      return "no answer from " + url + " ("
          + (why.startsWith(prefix) ? why.substring(prefix.length()) : why) + ")";
    }
  }

  private static List<String> hosts(Map<String, URI> urls) {
    return urls.values().stream()
        .map(u -> String.valueOf(u.getHost()))
        .distinct()
        .toList();
  }
}
