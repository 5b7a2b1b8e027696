package dev.noneops.core.goalstate;

import dev.noneops.core.config.AgentConfig;
import java.util.Objects;

/**
 * An override of where one artifact comes from. {@code url} (a template with positional
 * {@code %s}) wins over {@code baseUrl}; {@code version} wins over the configured version.
 * Empty strings mean "not overridden".
 */
public record DownloadSource(String baseUrl, String url, String version) {
  public static final DownloadSource NONE = new DownloadSource("", "", "");

  public DownloadSource {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(version, "version");
  }

  /** The same override as a configuration's {@code Downloads.<Artifact>} entry. */
  public static DownloadSource of(AgentConfig.Download download) {
    return new DownloadSource(download.baseUrl(), download.url(), download.version());
  }

  /** This override as a configuration's {@code Downloads.<Artifact>} entry. */
  public AgentConfig.Download toConfig() {
    return new AgentConfig.Download(baseUrl, url, version);
  }

  public boolean isEmpty() {
    return baseUrl.isEmpty() && url.isEmpty() && version.isEmpty();
  }
}
