fn main() {
    let x: i32 = "text";
    println!("{}", x);
}
