package dev.noneops.hostfs.nativeio;

import jnr.posix.POSIXFactory;

/** What making the binding does where jnr-posix can only emulate POSIX in Java: it refuses. */
public final class NonNativeBinding {

  private NonNativeBinding() {}

  /** Makes a binding over jnr-posix's pure-Java emulation, which {@link Syscalls} refuses. */
  public static Syscalls attempt() {
    Syscalls.requireNative(POSIXFactory.getJavaPOSIX());
    throw new AssertionError("an emulated POSIX was accepted as native");
  }
}
