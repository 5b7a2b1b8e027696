package dev.noneops.ports.download;

import java.io.IOException;
import java.net.URI;

/** A download failed: the server answered badly, the content was too large or did not verify. */
public class DownloadException extends IOException {
  private static final long serialVersionUID = 1L;

  /** Why the download failed. */
  public enum Reason {
    /** The server answered with a non-2xx status. */
    HTTP_STATUS,
    /** The content's digest differs from the expected one. */
    CHECKSUM_MISMATCH,
    /** The content exceeds the allowed size. */
    TOO_LARGE,
    /** The connection failed or broke, after every retry. */
    TRANSPORT
  }

  private final URI url;
  private final Reason reason;

  public DownloadException(URI url, Reason reason, String detail, Throwable cause) {
    super("download " + url + ": " + detail, cause);
    this.url = url;
    this.reason = reason;
  }

  public DownloadException(URI url, Reason reason, String detail) {
    this(url, reason, detail, null);
  }

  public URI url() {
    return url;
  }

  public Reason reason() {
    return reason;
  }
}
