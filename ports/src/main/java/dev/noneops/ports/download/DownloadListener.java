package dev.noneops.ports.download;

import java.net.URI;

/** Progress of one download, for operators watching a slow link. */
@FunctionalInterface
public interface DownloadListener {
  DownloadListener NONE = (url, received, total) -> {};

  /**
   * Called as bytes arrive.
   *
   * @param total the announced length, or -1 when the server did not say
   */
  void progress(URI url, long received, long total);
}
