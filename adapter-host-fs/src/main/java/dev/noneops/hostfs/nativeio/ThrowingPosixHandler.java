package dev.noneops.hostfs.nativeio;

import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;
import jnr.constants.platform.Errno;
import jnr.posix.POSIXHandler;

/**
 * A jnr-posix handler that reports failures as {@link NativeCallException} carrying the errno,
 * never prints, and refuses silently-unimplemented calls.
 */
final class ThrowingPosixHandler implements POSIXHandler {

  @Override
  public void error(Errno error, String extraData) {
    throw new NativeCallException(error.intValue(), extraData);
  }

  @Override
  public void error(Errno error, String methodName, String extraData) {
    throw new NativeCallException(error.intValue(), methodName + " " + extraData);
  }

  @Override
  public void unimplementedError(String methodName) {
    throw new IllegalStateException(
        "jnr-posix does not implement " + methodName + " natively on this platform");
  }

  @Override
  public void warn(WARNING_ID id, String message, Object... data) {
    // Warnings concern emulated calls, which this adapter never uses (it insists on native POSIX).
  }

  @Override
  public boolean isVerbose() {
    return false;
  }

  @Override
  public File getCurrentWorkingDirectory() {
    return new File(System.getProperty("user.dir"));
  }

  @Override
  public String[] getEnv() {
    return System.getenv().entrySet().stream().map(Map.Entry::toString).toArray(String[]::new);
  }

  @Override
  public InputStream getInputStream() {
    return System.in;
  }

  @Override
  public PrintStream getOutputStream() {
    return System.out;
  }

  @Override
  public int getPID() {
    return (int) ProcessHandle.current().pid();
  }

  @Override
  public PrintStream getErrorStream() {
    return System.err;
  }
}
