public class Solution {
    public static void main(String[] args) {
        int[] a = new int[2];
        System.out.println(a[5]);
    }
}
