package dev.noneops.hostfs.nativeio;

import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The jnr-ffi binding to the C library's {@code socket(2)}, {@code sendto(2)}, {@code close(2)}
 * and {@code clock_gettime(2)}: the JDK's channels cannot send unix datagrams. Public only because
 * jnr-ffi generates its implementation; use {@link UnixDatagrams}.
 */
public interface LibcDatagrams {
  int socket(int domain, int type, int protocol);

  @ssize_t
  long sendto(
      int fd,
      @In byte[] buffer,
      @size_t long length,
      int flags,
      @In byte[] address,
      int addressLength);

  int close(int fd);

  int clock_gettime(int clock, @Out long[] timespec);
}
