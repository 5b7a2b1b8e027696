package dev.noneops.core.node.internal.stack;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' version skew policy for kubelet: no newer than the API server, and at most three
 * minor versions older. Versions are compared by major and minor ({@code v1.31.4} and {@code
 * 1.31.2} are both 1.31); a version that names no major and minor cannot be judged and passes.
 */
public final class VersionSkew {
  /** How many minor versions older than the API server kubelet may be. */
  public static final int MAX_MINORS_OLDER = 3;

  /** The policy in words, for a refusal. */
  public static final String POLICY =
      "the version skew policy allows a kubelet no newer than the API server and at most "
          + MAX_MINORS_OLDER + " minor versions older";

  private static final Pattern VERSION = Pattern.compile("^v?(\\d+)\\.(\\d+)(?:[.+\\-].*)?$");

  private VersionSkew() {}

  /**
   * One line naming both versions and the policy when kubelet {@code kubelet} breaks the policy
   * against the API server {@code apiServer}; empty when it does not (or cannot be judged).
   */
  public static Optional<String> violation(String kubelet, String apiServer) {
    Matcher k = VERSION.matcher(kubelet.trim());
    Matcher a = VERSION.matcher(apiServer.trim());
    if (!k.matches() || !a.matches()) {
      return Optional.empty();
    }
    int kMajor = Integer.parseInt(k.group(1));
    int kMinor = Integer.parseInt(k.group(2));
    int aMajor = Integer.parseInt(a.group(1));
    int aMinor = Integer.parseInt(a.group(2));
    String kv = withV(kubelet.trim());
    String av = withV(apiServer.trim());
    if (kMajor > aMajor || (kMajor == aMajor && kMinor > aMinor)) {
      return Optional.of("kubelet " + kv + " is newer than the API server " + av + ": " + POLICY);
    }
    if (kMajor < aMajor || aMinor - kMinor > MAX_MINORS_OLDER) {
      return Optional.of("kubelet " + kv + " is more than " + MAX_MINORS_OLDER
          + " minor versions older than the API server " + av + ": " + POLICY);
    }
    return Optional.empty();
  }

  /** {@code version} with a leading {@code v}, as kubelet and the API server report theirs. */
  public static String withV(String version) {
    return version.startsWith("v") ? version : "v" + version;
  }
}
