package dev.noneops.core.config;

import dev.noneops.core.layout.VersionNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Names the version directory of a set of binaries: {@code <kubernetesVersion>-<digest>}, where
 * the digest is the first {@value #DIGEST_HEX_CHARS} hex characters of the SHA-256 of a canonical,
 * length-prefixed encoding of every other {@link VersionInputs} field (override origins
 * normalised, origins with no effect left out, pinned digests only when set). Same inputs give the same name, so re-applying a
 * configuration reuses the installed directory; any change to a binary-relevant input gives a new
 * name, so an upgrade never overwrites the binaries the running node executes.
 */
public final class VersionFor {
  /** Hex characters of the digest kept in the name (48 bits). */
  public static final int DIGEST_HEX_CHARS = 12;

  /** The longest Kubernetes version that still leaves room for {@code -<digest>}. */
  public static final int MAX_KUBERNETES_VERSION_LENGTH =
      VersionNames.MAX_LENGTH - 1 - DIGEST_HEX_CHARS;

  private static final String ENCODING_VERSION = "noneops-version-name/1";

  private VersionFor() {}

  /**
   * The version directory name for {@code inputs}.
   *
   * @throws IllegalArgumentException when the Kubernetes version cannot start a safe directory
   *     name (validation rejects such configurations first; see {@link #problemWith})
   */
  static String of(VersionInputs inputs) {
    problemWith(inputs.versions().kubernetes()).ifPresent(problem -> {
      throw new IllegalArgumentException(
          "Kubernetes version cannot name a version directory: " + problem);
    });
    String name = inputs.versions().kubernetes() + "-" + digest(inputs);
    return VersionNames.requireSafe(name);
  }

  /**
   * The version directory name {@code config} installs on a host of {@code arch}: its effective
   * component versions, the architecture, and the download origins and pinned digests that
   * change which binaries are installed.
   */
  public static String of(AgentConfig config, String arch) {
    AgentConfig.Downloads downloads = config.downloads();
    TreeMap<String, VersionInputs.DownloadOrigin> origins = new TreeMap<>();
    for (DownloadArtifact a : DownloadArtifact.values()) {
      AgentConfig.Download d = downloads.of(a);
      VersionInputs.DownloadOrigin origin = new VersionInputs.DownloadOrigin(d.baseUrl(), d.url());
      if (!origin.isEmpty()) {
        origins.put(a.jsonName(), origin);
      }
    }
    TreeMap<String, String> pins = new TreeMap<>();
    for (DownloadArtifact a : DownloadArtifact.values()) {
      downloads
          .of(a)
          .sha256()
          .forEach((file, hex) -> pins.put(
              file.equals(AgentConfig.Download.SINGLE_FILE)
                  ? a.jsonName()
                  : a.jsonName() + "." + file,
              hex));
    }
    return of(new VersionInputs(config.effectiveVersions(), arch, origins, pins));
  }

  /**
   * Why {@code kubernetesVersion} cannot start a version directory name, or empty when it can.
   * The name allows only {@code [0-9A-Za-z._+-]}, no {@code ..}, no leading dot, and at most
   * {@value #MAX_KUBERNETES_VERSION_LENGTH} characters before the digest.
   */
  public static Optional<String> problemWith(String kubernetesVersion) {
    if (kubernetesVersion.isEmpty()) {
      return Optional.of("it is empty");
    }
    if (kubernetesVersion.length() > MAX_KUBERNETES_VERSION_LENGTH) {
      return Optional.of("it is " + kubernetesVersion.length()
          + " characters long; a version directory name allows at most "
          + MAX_KUBERNETES_VERSION_LENGTH + " before its digest");
    }
    if (!VersionNames.isSafe(kubernetesVersion + "-" + "0".repeat(DIGEST_HEX_CHARS))) {
      return Optional.of(
          "a version directory name allows only [0-9A-Za-z._+-], no '..' and no leading '.'");
    }
    return Optional.empty();
  }

  /** The digest part of the name: what the encoding of every non-Kubernetes input hashes to. */
  static String digest(VersionInputs inputs) {
    StringBuilder canonical = new StringBuilder(ENCODING_VERSION).append('\n');
    field(canonical, "containerd", inputs.versions().containerd());
    field(canonical, "runc", inputs.versions().runc());
    field(canonical, "cni", inputs.versions().cniPlugins());
    field(canonical, "crictl", inputs.versions().crictl());
    field(canonical, "localdns", inputs.versions().localDns());
    field(canonical, "arch", inputs.arch());
    for (Map.Entry<String, VersionInputs.DownloadOrigin> e :
        inputs.downloadOrigins().entrySet()) {
      VersionInputs.DownloadOrigin origin = e.getValue().normalized();
      if (origin.isEmpty()) {
        continue;
      }
      field(canonical, "download." + e.getKey() + ".base", origin.baseUrl());
      field(canonical, "download." + e.getKey() + ".url", origin.urlTemplate());
    }
    for (Map.Entry<String, String> pin : inputs.pinnedDigests().entrySet()) {
      field(canonical, "pin." + pin.getKey(), pin.getValue());
    }
    return HexFormat.of().formatHex(sha256(canonical.toString())).substring(0, DIGEST_HEX_CHARS);
  }

  /** {@code name=<length>:<value>\n}: the length prefix keeps the encoding unambiguous. */
  private static void field(StringBuilder out, String name, String value) {
    out.append(name)
        .append('=')
        .append(value.length())
        .append(':')
        .append(value)
        .append('\n');
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
