package dev.noneops.core.config;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything that decides which binaries a version directory holds, and nothing else: the
 * effective component versions (override precedence already applied), the architecture, and
 * where each overridden artifact is downloaded from. Host name, labels, taints, credentials and
 * DNS addresses are deliberately absent: they change configuration, not binaries.
 *
 * @param versions the effective version of every component
 * @param arch {@code amd64} or {@code arm64}
 * @param downloadOrigins per artifact (keyed by its configuration name, e.g. {@code Containerd}),
 *     the overridden download origin; artifacts fetched from their default location are absent
 * @param pinnedDigests the configured SHA-256 pins (keyed {@code Containerd}, {@code Kubernetes.kubelet}, ...):
 *     a pin names the exact content installed, so a new pin installs afresh, verified against it
 */
record VersionInputs(
    ComponentVersions versions,
    String arch,
    SortedMap<String, DownloadOrigin> downloadOrigins,
    SortedMap<String, String> pinnedDigests) {

  public VersionInputs {
    Objects.requireNonNull(versions, "versions");
    Objects.requireNonNull(arch, "arch");
    downloadOrigins = Collections.unmodifiableSortedMap(new TreeMap<>(downloadOrigins));
    pinnedDigests = Collections.unmodifiableSortedMap(new TreeMap<>(pinnedDigests));
  }

  /** Inputs without pinned digests. */
  public VersionInputs(
      ComponentVersions versions, String arch, SortedMap<String, DownloadOrigin> downloadOrigins) {
    this(versions, arch, downloadOrigins, new TreeMap<>());
  }

  /**
   * Where an artifact is fetched from when it is overridden: a URL template (which wins) or a
   * base URL. Version overrides are not part of it; they are already in the effective versions.
   *
   * @param baseUrl the base URL override, {@code ""} when none
   * @param urlTemplate the URL template override, {@code ""} when none
   */
  public record DownloadOrigin(String baseUrl, String urlTemplate) {
    public DownloadOrigin {
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(urlTemplate, "urlTemplate");
    }

    /**
     * The origin as it takes effect: a template makes the base URL irrelevant, and one trailing
     * {@code /} of a base URL is not significant. Empty strings when nothing is overridden.
     */
    public DownloadOrigin normalized() {
      if (!urlTemplate.isEmpty()) {
        return new DownloadOrigin("", urlTemplate);
      }
      return new DownloadOrigin(
          baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl, "");
    }

    public boolean isEmpty() {
      return baseUrl.isEmpty() && urlTemplate.isEmpty();
    }
  }
}
