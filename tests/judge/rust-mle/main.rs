fn main() {
    let mut keep: Vec<Vec<u8>> = Vec::new();
    for i in 0..512 {
        keep.push(vec![i as u8; 1 << 20]);
    }
    println!("{}", keep.len());
}
