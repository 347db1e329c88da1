//! How much memory this process may still allocate: the least of what the
//! machine has free (`MemAvailable`), what its address-space limit leaves
//! (`ulimit -v`) and what its cgroup leaves (`memory.max`). Inputs are
//! checked against it before they are built, so that a small file asking
//! for a huge matrix or operand is refused with a message, not killed or
//! aborted by a failed allocation.

/// Bytes this process may still allocate, where any limit is known.
pub fn available_memory() -> Option<u64> {
    [machine_available(), address_space_left(), cgroup_left()].into_iter().flatten().min()
}

/// Whether `needed` bytes fit in [`available_memory`]: `Err((needed MiB,
/// available MiB))` when they do not.
pub fn check_fits(needed: u64) -> Result<(), (u64, u64)> {
    match available_memory() {
        Some(available) if needed > available => Err((needed >> 20, available >> 20)),
        _ => Ok(()),
    }
}

fn machine_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The soft address-space limit less the address space already mapped.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line["Max address space".len()..].split_whitespace().next()?.parse().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped = kib_field(&status, "VmSize:").unwrap_or(0);
    Some(soft.saturating_sub(mapped))
}

/// The cgroup (v2) memory limit less what the cgroup uses.
fn cgroup_left() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
    let directory = format!("/sys/fs/cgroup{path}");
    let read = |name: &str| std::fs::read_to_string(format!("{directory}/{name}")).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current").and_then(|c| c.trim().parse().ok()).unwrap_or(0);
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_limits_this_machine_has() {
        let available = available_memory().expect("Linux has /proc/meminfo");
        assert!(available > 0);
        assert!(check_fits(0).is_ok());
        assert!(check_fits(u64::MAX).is_err());
    }

    #[test]
    fn parses_kib_fields() {
        assert_eq!(kib_field("MemTotal: 10 kB\nMemAvailable:    2048 kB\n", "MemAvailable:"), Some(2 << 20));
        assert_eq!(kib_field("MemTotal: 10 kB\n", "MemAvailable:"), None);
    }
}
