package dev.noneops.hostfs.download;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where the bytes of one download attempt go (a temp file, or memory). */
interface BodySink {
  /** Consumes every remaining byte of {@code chunk}. */
  void accept(ByteBuffer chunk) throws IOException;
}
