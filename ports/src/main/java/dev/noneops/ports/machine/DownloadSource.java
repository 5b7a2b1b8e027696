package dev.noneops.ports.machine;

import java.util.Objects;

/**
 * One entry of {@code spec.agent.downloads}: a base URL, a full URL, a version; {@code ""} for what
 * is not set.
 */
public record DownloadSource(String baseURL, String url, String version) {

  public DownloadSource {
    Objects.requireNonNull(baseURL, "baseURL");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(version, "version");
  }
}
