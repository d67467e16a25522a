//! SIGTERM and SIGINT for long-running commands that must clean up before they exit (`tuner
//! worker` removes its private directory): the handler only records the signal in an atomic,
//! which the command's loop polls; the first signal restores the default action, so a second one
//! ends the process at once.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal received (`SIGTERM`, `SIGINT`), 0 while none came.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Records SIGTERM and SIGINT in [`received`] from now on, instead of ending the process.
///
/// # Errors
/// The system's refusal to install a handler.
pub fn catch_termination() -> std::io::Result<&'static AtomicI32> {
    #[cfg(unix)]
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: the handler only stores into a lock-free atomic, which is async-signal-safe;
        // `action` is fully initialised (zeroed, then its handler, flags and empty mask set).
        let installed = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // Interrupted system calls restart (a broker read is not cut short); a second signal
            // gets the default action.
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if installed != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(&RECEIVED)
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    RECEIVED.store(signal, Ordering::Relaxed);
}

/// The signal's name, for messages: `SIGTERM`, `SIGINT`, else `signal N`.
pub fn name(signal: i32) -> String {
    #[cfg(unix)]
    match signal {
        libc::SIGTERM => return "SIGTERM".into(),
        libc::SIGINT => return "SIGINT".into(),
        _ => {}
    }
    format!("signal {signal}")
}

/// The signal received since [`catch_termination`], if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}
