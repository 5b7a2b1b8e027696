package dev.noneops.core.goalstate;

import dev.noneops.core.config.AgentConfig;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An override of where one artifact comes from and how it is verified. {@code url} (a template
 * with positional {@code %s}) wins over {@code baseUrl}; {@code version} wins over the configured
 * version; {@code sha256} pins digests as {@link AgentConfig.Download#sha256()} does;
 * {@code allowUnverified} as {@link AgentConfig.Download#allowUnverified()}; {@code sha256Url} as
 * {@link AgentConfig.Download#sha256Url()}. Empty strings mean "not overridden".
 */
public record DownloadSource(
    String baseUrl,
    String url,
    String version,
    SortedMap<String, String> sha256,
    boolean allowUnverified,
    String sha256Url) {
  public static final DownloadSource NONE = new DownloadSource("", "", "");

  public DownloadSource {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(version, "version");
    sha256 = Collections.unmodifiableSortedMap(new TreeMap<>(sha256));
    Objects.requireNonNull(sha256Url, "sha256Url");
  }

  /** An override verified against the checksum published beside the artifact, or a pinned one. */
  public DownloadSource(
      String baseUrl,
      String url,
      String version,
      SortedMap<String, String> sha256,
      boolean allowUnverified) {
    this(baseUrl, url, version, sha256, allowUnverified, "");
  }

  /** An override of where an artifact comes from, verified against its published checksum. */
  public DownloadSource(String baseUrl, String url, String version) {
    this(baseUrl, url, version, new TreeMap<>(), false);
  }

  /** The same override as a configuration's {@code Downloads.<Artifact>} entry. */
  public static DownloadSource of(AgentConfig.Download download) {
    return new DownloadSource(
        download.baseUrl(),
        download.url(),
        download.version(),
        download.sha256(),
        download.allowUnverified(),
        download.sha256Url());
  }

  /** This override as a configuration's {@code Downloads.<Artifact>} entry. */
  public AgentConfig.Download toConfig() {
    return new AgentConfig.Download(baseUrl, url, version, sha256, allowUnverified, sha256Url);
  }

  public boolean isEmpty() {
    return baseUrl.isEmpty()
        && url.isEmpty()
        && version.isEmpty()
        && sha256.isEmpty()
        && !allowUnverified
        && sha256Url.isEmpty();
  }
}
