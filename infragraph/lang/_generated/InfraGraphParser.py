# Generated from InfraGraph.g4 by ANTLR 4.13.2
# encoding: utf-8
from antlr4 import *
from io import StringIO
import sys
if sys.version_info[1] > 5:
	from typing import TextIO
else:
	from typing.io import TextIO

def serializedATN():
    return [
        4,1,64,471,2,0,7,0,2,1,7,1,2,2,7,2,2,3,7,3,2,4,7,4,2,5,7,5,2,6,7,
        6,2,7,7,7,2,8,7,8,2,9,7,9,2,10,7,10,2,11,7,11,2,12,7,12,2,13,7,13,
        2,14,7,14,2,15,7,15,2,16,7,16,2,17,7,17,2,18,7,18,2,19,7,19,2,20,
        7,20,2,21,7,21,2,22,7,22,2,23,7,23,2,24,7,24,2,25,7,25,2,26,7,26,
        2,27,7,27,2,28,7,28,2,29,7,29,2,30,7,30,2,31,7,31,2,32,7,32,2,33,
        7,33,1,0,3,0,70,8,0,1,0,5,0,73,8,0,10,0,12,0,76,9,0,1,0,1,0,1,1,
        1,1,1,1,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,3,2,91,8,2,1,3,1,3,1,3,3,
        3,96,8,3,1,3,1,3,3,3,100,8,3,1,3,3,3,103,8,3,1,4,1,4,1,4,5,4,108,
        8,4,10,4,12,4,111,9,4,1,5,1,5,1,5,1,5,1,5,1,5,3,5,119,8,5,1,5,3,
        5,122,8,5,1,6,1,6,1,6,3,6,127,8,6,1,6,1,6,1,7,1,7,1,7,3,7,134,8,
        7,1,7,1,7,1,7,1,7,1,7,1,7,1,7,3,7,143,8,7,3,7,145,8,7,1,8,1,8,1,
        8,1,8,1,8,1,8,3,8,153,8,8,1,9,1,9,1,9,1,9,1,10,1,10,1,10,1,10,5,
        10,163,8,10,10,10,12,10,166,9,10,1,10,3,10,169,8,10,3,10,171,8,10,
        1,10,1,10,1,11,1,11,1,11,1,11,1,11,3,11,180,8,11,1,12,1,12,1,12,
        1,12,1,12,3,12,187,8,12,1,13,1,13,3,13,191,8,13,1,13,5,13,194,8,
        13,10,13,12,13,197,9,13,1,13,1,13,1,14,1,14,1,14,1,14,1,14,1,14,
        1,14,1,14,1,14,1,14,1,14,3,14,212,8,14,1,15,1,15,1,15,1,15,1,15,
        3,15,219,8,15,1,16,1,16,1,16,1,16,3,16,225,8,16,1,16,3,16,228,8,
        16,1,17,1,17,1,17,1,17,1,17,1,17,1,18,1,18,1,18,1,18,1,18,1,18,3,
        18,242,8,18,3,18,244,8,18,1,19,1,19,1,19,1,19,1,19,1,19,3,19,252,
        8,19,1,19,1,19,1,19,3,19,257,8,19,1,19,3,19,260,8,19,1,20,1,20,1,
        20,1,20,1,20,1,20,3,20,268,8,20,1,20,1,20,1,20,3,20,273,8,20,1,20,
        3,20,276,8,20,1,21,1,21,5,21,280,8,21,10,21,12,21,283,9,21,1,21,
        1,21,1,22,1,22,1,22,1,22,1,22,5,22,292,8,22,10,22,12,22,295,9,22,
        1,22,3,22,298,8,22,1,23,1,23,1,23,1,23,1,24,1,24,1,24,1,24,3,24,
        308,8,24,1,24,3,24,311,8,24,1,25,1,25,1,25,1,25,3,25,317,8,25,1,
        25,1,25,3,25,321,8,25,1,25,3,25,324,8,25,1,26,1,26,1,27,1,27,1,27,
        1,27,3,27,332,8,27,1,28,1,28,1,28,1,28,1,28,1,28,3,28,340,8,28,1,
        28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,
        28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,
        28,1,28,1,28,1,28,1,28,1,28,3,28,374,8,28,1,28,5,28,377,8,28,10,
        28,12,28,380,9,28,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,3,
        29,391,8,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,
        29,1,29,1,29,3,29,406,8,29,1,29,1,29,1,29,1,29,1,29,1,29,5,29,414,
        8,29,10,29,12,29,417,9,29,1,29,3,29,420,8,29,3,29,422,8,29,1,29,
        1,29,1,29,1,29,1,29,1,29,1,29,1,29,3,29,432,8,29,1,30,1,30,3,30,
        436,8,30,1,30,1,30,3,30,440,8,30,1,30,1,30,3,30,444,8,30,3,30,446,
        8,30,1,30,3,30,449,8,30,1,31,1,31,1,31,5,31,454,8,31,10,31,12,31,
        457,9,31,1,31,3,31,460,8,31,1,32,1,32,1,32,3,32,465,8,32,1,32,1,
        32,1,33,1,33,1,33,0,1,56,34,0,2,4,6,8,10,12,14,16,18,20,22,24,26,
        28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62,64,66,0,6,
        1,0,20,22,2,0,35,35,46,48,1,0,44,45,2,0,11,11,37,42,1,0,23,24,1,
        0,59,60,530,0,69,1,0,0,0,2,79,1,0,0,0,4,90,1,0,0,0,6,92,1,0,0,0,
        8,104,1,0,0,0,10,112,1,0,0,0,12,123,1,0,0,0,14,144,1,0,0,0,16,146,
        1,0,0,0,18,154,1,0,0,0,20,158,1,0,0,0,22,174,1,0,0,0,24,181,1,0,
        0,0,26,188,1,0,0,0,28,211,1,0,0,0,30,213,1,0,0,0,32,220,1,0,0,0,
        34,229,1,0,0,0,36,235,1,0,0,0,38,245,1,0,0,0,40,261,1,0,0,0,42,277,
        1,0,0,0,44,286,1,0,0,0,46,299,1,0,0,0,48,303,1,0,0,0,50,312,1,0,
        0,0,52,325,1,0,0,0,54,327,1,0,0,0,56,339,1,0,0,0,58,431,1,0,0,0,
        60,448,1,0,0,0,62,450,1,0,0,0,64,464,1,0,0,0,66,468,1,0,0,0,68,70,
        5,28,0,0,69,68,1,0,0,0,69,70,1,0,0,0,70,74,1,0,0,0,71,73,3,4,2,0,
        72,71,1,0,0,0,73,76,1,0,0,0,74,72,1,0,0,0,74,75,1,0,0,0,75,77,1,
        0,0,0,76,74,1,0,0,0,77,78,5,0,0,1,78,1,1,0,0,0,79,80,3,56,28,0,80,
        81,5,0,0,1,81,3,1,0,0,0,82,91,3,6,3,0,83,91,3,10,5,0,84,91,3,12,
        6,0,85,91,3,14,7,0,86,91,3,16,8,0,87,91,3,18,9,0,88,91,3,30,15,0,
        89,91,3,32,16,0,90,82,1,0,0,0,90,83,1,0,0,0,90,84,1,0,0,0,90,85,
        1,0,0,0,90,86,1,0,0,0,90,87,1,0,0,0,90,88,1,0,0,0,90,89,1,0,0,0,
        91,5,1,0,0,0,92,95,5,1,0,0,93,96,5,29,0,0,94,96,3,8,4,0,95,93,1,
        0,0,0,95,94,1,0,0,0,96,99,1,0,0,0,97,98,5,2,0,0,98,100,3,66,33,0,
        99,97,1,0,0,0,99,100,1,0,0,0,100,102,1,0,0,0,101,103,5,52,0,0,102,
        101,1,0,0,0,102,103,1,0,0,0,103,7,1,0,0,0,104,109,3,66,33,0,105,
        106,5,49,0,0,106,108,3,66,33,0,107,105,1,0,0,0,108,111,1,0,0,0,109,
        107,1,0,0,0,109,110,1,0,0,0,110,9,1,0,0,0,111,109,1,0,0,0,112,113,
        5,3,0,0,113,114,3,66,33,0,114,115,5,51,0,0,115,118,3,24,12,0,116,
        117,5,43,0,0,117,119,3,56,28,0,118,116,1,0,0,0,118,119,1,0,0,0,119,
        121,1,0,0,0,120,122,5,52,0,0,121,120,1,0,0,0,121,122,1,0,0,0,122,
        11,1,0,0,0,123,124,5,4,0,0,124,126,3,66,33,0,125,127,3,20,10,0,126,
        125,1,0,0,0,126,127,1,0,0,0,127,128,1,0,0,0,128,129,3,26,13,0,129,
        13,1,0,0,0,130,131,5,5,0,0,131,133,3,66,33,0,132,134,3,20,10,0,133,
        132,1,0,0,0,133,134,1,0,0,0,134,135,1,0,0,0,135,136,3,26,13,0,136,
        145,1,0,0,0,137,138,5,5,0,0,138,139,3,66,33,0,139,140,5,43,0,0,140,
        142,3,56,28,0,141,143,5,52,0,0,142,141,1,0,0,0,142,143,1,0,0,0,143,
        145,1,0,0,0,144,130,1,0,0,0,144,137,1,0,0,0,145,15,1,0,0,0,146,147,
        5,6,0,0,147,148,3,66,33,0,148,149,3,20,10,0,149,150,5,43,0,0,150,
        152,3,56,28,0,151,153,5,52,0,0,152,151,1,0,0,0,152,153,1,0,0,0,153,
        17,1,0,0,0,154,155,5,7,0,0,155,156,3,66,33,0,156,157,3,26,13,0,157,
        19,1,0,0,0,158,170,5,53,0,0,159,164,3,22,11,0,160,161,5,50,0,0,161,
        163,3,22,11,0,162,160,1,0,0,0,163,166,1,0,0,0,164,162,1,0,0,0,164,
        165,1,0,0,0,165,168,1,0,0,0,166,164,1,0,0,0,167,169,5,50,0,0,168,
        167,1,0,0,0,168,169,1,0,0,0,169,171,1,0,0,0,170,159,1,0,0,0,170,
        171,1,0,0,0,171,172,1,0,0,0,172,173,5,54,0,0,173,21,1,0,0,0,174,
        175,3,66,33,0,175,176,5,51,0,0,176,179,3,24,12,0,177,178,5,43,0,
        0,178,180,3,56,28,0,179,177,1,0,0,0,179,180,1,0,0,0,180,23,1,0,0,
        0,181,186,3,66,33,0,182,183,5,55,0,0,183,184,3,66,33,0,184,185,5,
        56,0,0,185,187,1,0,0,0,186,182,1,0,0,0,186,187,1,0,0,0,187,25,1,
        0,0,0,188,190,5,57,0,0,189,191,5,28,0,0,190,189,1,0,0,0,190,191,
        1,0,0,0,191,195,1,0,0,0,192,194,3,28,14,0,193,192,1,0,0,0,194,197,
        1,0,0,0,195,193,1,0,0,0,195,196,1,0,0,0,196,198,1,0,0,0,197,195,
        1,0,0,0,198,199,5,58,0,0,199,27,1,0,0,0,200,212,3,30,15,0,201,212,
        3,32,16,0,202,212,3,34,17,0,203,212,3,36,18,0,204,212,3,38,19,0,
        205,212,3,40,20,0,206,212,3,18,9,0,207,212,3,44,22,0,208,212,3,48,
        24,0,209,212,3,50,25,0,210,212,3,54,27,0,211,200,1,0,0,0,211,201,
        1,0,0,0,211,202,1,0,0,0,211,203,1,0,0,0,211,204,1,0,0,0,211,205,
        1,0,0,0,211,206,1,0,0,0,211,207,1,0,0,0,211,208,1,0,0,0,211,209,
        1,0,0,0,211,210,1,0,0,0,212,29,1,0,0,0,213,214,5,8,0,0,214,215,3,
        66,33,0,215,216,5,43,0,0,216,218,3,56,28,0,217,219,5,52,0,0,218,
        217,1,0,0,0,218,219,1,0,0,0,219,31,1,0,0,0,220,221,5,9,0,0,221,224,
        3,56,28,0,222,223,5,50,0,0,223,225,3,56,28,0,224,222,1,0,0,0,224,
        225,1,0,0,0,225,227,1,0,0,0,226,228,5,52,0,0,227,226,1,0,0,0,227,
        228,1,0,0,0,228,33,1,0,0,0,229,230,5,10,0,0,230,231,3,66,33,0,231,
        232,5,11,0,0,232,233,3,56,28,0,233,234,3,26,13,0,234,35,1,0,0,0,
        235,236,5,12,0,0,236,237,3,56,28,0,237,243,3,26,13,0,238,241,5,14,
        0,0,239,242,3,36,18,0,240,242,3,26,13,0,241,239,1,0,0,0,241,240,
        1,0,0,0,242,244,1,0,0,0,243,238,1,0,0,0,243,244,1,0,0,0,244,37,1,
        0,0,0,245,246,5,15,0,0,246,251,3,66,33,0,247,248,5,55,0,0,248,249,
        3,56,28,0,249,250,5,56,0,0,250,252,1,0,0,0,251,247,1,0,0,0,251,252,
        1,0,0,0,252,253,1,0,0,0,253,254,5,51,0,0,254,256,3,56,28,0,255,257,
        3,42,21,0,256,255,1,0,0,0,256,257,1,0,0,0,257,259,1,0,0,0,258,260,
        5,52,0,0,259,258,1,0,0,0,259,260,1,0,0,0,260,39,1,0,0,0,261,262,
        5,16,0,0,262,267,3,66,33,0,263,264,5,55,0,0,264,265,3,56,28,0,265,
        266,5,56,0,0,266,268,1,0,0,0,267,263,1,0,0,0,267,268,1,0,0,0,268,
        269,1,0,0,0,269,270,5,51,0,0,270,272,3,56,28,0,271,273,3,42,21,0,
        272,271,1,0,0,0,272,273,1,0,0,0,273,275,1,0,0,0,274,276,5,52,0,0,
        275,274,1,0,0,0,275,276,1,0,0,0,276,41,1,0,0,0,277,281,5,57,0,0,
        278,280,3,54,27,0,279,278,1,0,0,0,280,283,1,0,0,0,281,279,1,0,0,
        0,281,282,1,0,0,0,282,284,1,0,0,0,283,281,1,0,0,0,284,285,5,58,0,
        0,285,43,1,0,0,0,286,287,5,17,0,0,287,288,3,56,28,0,288,293,3,46,
        23,0,289,290,5,50,0,0,290,292,3,46,23,0,291,289,1,0,0,0,292,295,
        1,0,0,0,293,291,1,0,0,0,293,294,1,0,0,0,294,297,1,0,0,0,295,293,
        1,0,0,0,296,298,5,52,0,0,297,296,1,0,0,0,297,298,1,0,0,0,298,45,
        1,0,0,0,299,300,3,66,33,0,300,301,5,43,0,0,301,302,3,56,28,0,302,
        47,1,0,0,0,303,304,5,18,0,0,304,307,3,56,28,0,305,306,5,2,0,0,306,
        308,3,66,33,0,307,305,1,0,0,0,307,308,1,0,0,0,308,310,1,0,0,0,309,
        311,5,52,0,0,310,309,1,0,0,0,310,311,1,0,0,0,311,49,1,0,0,0,312,
        313,3,56,28,0,313,314,5,33,0,0,314,316,3,56,28,0,315,317,3,52,26,
        0,316,315,1,0,0,0,316,317,1,0,0,0,317,320,1,0,0,0,318,319,5,19,0,
        0,319,321,3,56,28,0,320,318,1,0,0,0,320,321,1,0,0,0,321,323,1,0,
        0,0,322,324,5,52,0,0,323,322,1,0,0,0,323,324,1,0,0,0,324,51,1,0,
        0,0,325,326,7,0,0,0,326,53,1,0,0,0,327,328,3,66,33,0,328,329,5,43,
        0,0,329,331,3,56,28,0,330,332,5,52,0,0,331,330,1,0,0,0,331,332,1,
        0,0,0,332,55,1,0,0,0,333,334,6,28,-1,0,334,340,3,58,29,0,335,336,
        5,45,0,0,336,340,3,56,28,8,337,338,5,27,0,0,338,340,3,56,28,3,339,
        333,1,0,0,0,339,335,1,0,0,0,339,337,1,0,0,0,340,378,1,0,0,0,341,
        342,10,9,0,0,342,343,5,36,0,0,343,377,3,56,28,9,344,345,10,7,0,0,
        345,346,7,1,0,0,346,377,3,56,28,8,347,348,10,6,0,0,348,349,7,2,0,
        0,349,377,3,56,28,7,350,351,10,5,0,0,351,352,5,34,0,0,352,377,3,
        56,28,6,353,354,10,4,0,0,354,355,7,3,0,0,355,377,3,56,28,5,356,357,
        10,2,0,0,357,358,5,25,0,0,358,377,3,56,28,3,359,360,10,1,0,0,360,
        361,5,26,0,0,361,377,3,56,28,2,362,363,10,12,0,0,363,364,5,49,0,
        0,364,377,3,66,33,0,365,366,10,11,0,0,366,367,5,55,0,0,367,368,3,
        60,30,0,368,369,5,56,0,0,369,377,1,0,0,0,370,371,10,10,0,0,371,373,
        5,53,0,0,372,374,3,62,31,0,373,372,1,0,0,0,373,374,1,0,0,0,374,375,
        1,0,0,0,375,377,5,54,0,0,376,341,1,0,0,0,376,344,1,0,0,0,376,347,
        1,0,0,0,376,350,1,0,0,0,376,353,1,0,0,0,376,356,1,0,0,0,376,359,
        1,0,0,0,376,362,1,0,0,0,376,365,1,0,0,0,376,370,1,0,0,0,377,380,
        1,0,0,0,378,376,1,0,0,0,378,379,1,0,0,0,379,57,1,0,0,0,380,378,1,
        0,0,0,381,432,5,32,0,0,382,432,5,31,0,0,383,432,5,30,0,0,384,432,
        5,29,0,0,385,432,7,4,0,0,386,432,3,66,33,0,387,388,5,7,0,0,388,390,
        5,53,0,0,389,391,3,62,31,0,390,389,1,0,0,0,390,391,1,0,0,0,391,392,
        1,0,0,0,392,432,5,54,0,0,393,394,5,53,0,0,394,395,3,56,28,0,395,
        396,5,54,0,0,396,432,1,0,0,0,397,398,5,55,0,0,398,399,3,56,28,0,
        399,400,5,10,0,0,400,401,3,66,33,0,401,402,5,11,0,0,402,405,3,56,
        28,0,403,404,5,12,0,0,404,406,3,56,28,0,405,403,1,0,0,0,405,406,
        1,0,0,0,406,407,1,0,0,0,407,408,5,56,0,0,408,432,1,0,0,0,409,421,
        5,55,0,0,410,415,3,56,28,0,411,412,5,50,0,0,412,414,3,56,28,0,413,
        411,1,0,0,0,414,417,1,0,0,0,415,413,1,0,0,0,415,416,1,0,0,0,416,
        419,1,0,0,0,417,415,1,0,0,0,418,420,5,50,0,0,419,418,1,0,0,0,419,
        420,1,0,0,0,420,422,1,0,0,0,421,410,1,0,0,0,421,422,1,0,0,0,422,
        423,1,0,0,0,423,432,5,56,0,0,424,425,5,12,0,0,425,426,3,56,28,0,
        426,427,5,13,0,0,427,428,3,56,28,0,428,429,5,14,0,0,429,430,3,56,
        28,0,430,432,1,0,0,0,431,381,1,0,0,0,431,382,1,0,0,0,431,383,1,0,
        0,0,431,384,1,0,0,0,431,385,1,0,0,0,431,386,1,0,0,0,431,387,1,0,
        0,0,431,393,1,0,0,0,431,397,1,0,0,0,431,409,1,0,0,0,431,424,1,0,
        0,0,432,59,1,0,0,0,433,449,5,46,0,0,434,436,3,56,28,0,435,434,1,
        0,0,0,435,436,1,0,0,0,436,437,1,0,0,0,437,439,5,51,0,0,438,440,3,
        56,28,0,439,438,1,0,0,0,439,440,1,0,0,0,440,445,1,0,0,0,441,443,
        5,51,0,0,442,444,3,56,28,0,443,442,1,0,0,0,443,444,1,0,0,0,444,446,
        1,0,0,0,445,441,1,0,0,0,445,446,1,0,0,0,446,449,1,0,0,0,447,449,
        3,56,28,0,448,433,1,0,0,0,448,435,1,0,0,0,448,447,1,0,0,0,449,61,
        1,0,0,0,450,455,3,64,32,0,451,452,5,50,0,0,452,454,3,64,32,0,453,
        451,1,0,0,0,454,457,1,0,0,0,455,453,1,0,0,0,455,456,1,0,0,0,456,
        459,1,0,0,0,457,455,1,0,0,0,458,460,5,50,0,0,459,458,1,0,0,0,459,
        460,1,0,0,0,460,63,1,0,0,0,461,462,3,66,33,0,462,463,5,43,0,0,463,
        465,1,0,0,0,464,461,1,0,0,0,464,465,1,0,0,0,465,466,1,0,0,0,466,
        467,3,56,28,0,467,65,1,0,0,0,468,469,7,5,0,0,469,67,1,0,0,0,60,69,
        74,90,95,99,102,109,118,121,126,133,142,144,152,164,168,170,179,
        186,190,195,211,218,224,227,241,243,251,256,259,267,272,275,281,
        293,297,307,310,316,320,323,331,339,373,376,378,390,405,415,419,
        421,431,435,439,443,445,448,455,459,464
    ]

class InfraGraphParser ( Parser ):

    grammarFileName = "InfraGraph.g4"

    atn = ATNDeserializer().deserialize(serializedATN())

    decisionsToDFA = [ DFA(ds, i) for i, ds in enumerate(atn.decisionToState) ]

    sharedContextCache = PredictionContextCache()

    literalNames = [ "<INVALID>", "'import'", "'as'", "'param'", "'device'", 
                     "'fabric'", "'fn'", "'link'", "'let'", "'assert'", 
                     "'for'", "'in'", "'if'", "'then'", "'else'", "'component'", 
                     "'instance'", "'annotate'", "'include'", "'via'", "'one2one'", 
                     "'many2many'", "'ring'", "'true'", "'false'", "'and'", 
                     "'or'", "'not'", "<INVALID>", "<INVALID>", "<INVALID>", 
                     "<INVALID>", "<INVALID>", "'--'", "'..'", "'//'", "'**'", 
                     "'<='", "'>='", "'=='", "'!='", "'<'", "'>'", "'='", 
                     "'+'", "'-'", "'*'", "'/'", "'%'", "'.'", "','", "':'", 
                     "';'", "'('", "')'", "'['", "']'", "'{'", "'}'" ]

    symbolicNames = [ "<INVALID>", "IMPORT", "AS", "PARAM", "DEVICE", "FABRIC", 
                      "FN", "LINK", "LET", "ASSERT", "FOR", "IN", "IF", 
                      "THEN", "ELSE", "COMPONENT", "INSTANCE", "ANNOTATE", 
                      "INCLUDE", "VIA", "ONE2ONE", "MANY2MANY", "RING", 
                      "TRUE", "FALSE", "AND", "OR", "NOT", "DOCSTRING", 
                      "STRING", "QUANTITY", "FLOAT", "INT", "EDGE", "DOTDOT", 
                      "DSLASH", "POW", "LE", "GE", "EQ", "NE", "LT", "GT", 
                      "ASSIGN", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", 
                      "DOT", "COMMA", "COLON", "SEMI", "LPAREN", "RPAREN", 
                      "LBRACK", "RBRACK", "LBRACE", "RBRACE", "IDENT", "QIDENT", 
                      "DOC_COMMENT", "COMMENT", "WS", "ERROR_CHAR" ]

    RULE_program = 0
    RULE_exprOnly = 1
    RULE_topItem = 2
    RULE_importDecl = 3
    RULE_dottedName = 4
    RULE_paramDecl = 5
    RULE_deviceDecl = 6
    RULE_fabricDecl = 7
    RULE_fnDecl = 8
    RULE_linkDecl = 9
    RULE_paramList = 10
    RULE_param = 11
    RULE_typeName = 12
    RULE_block = 13
    RULE_stmt = 14
    RULE_letStmt = 15
    RULE_assertStmt = 16
    RULE_forStmt = 17
    RULE_ifStmt = 18
    RULE_componentStmt = 19
    RULE_instanceStmt = 20
    RULE_attrBlock = 21
    RULE_annotateStmt = 22
    RULE_attr = 23
    RULE_includeStmt = 24
    RULE_edgeStmt = 25
    RULE_scheme = 26
    RULE_propStmt = 27
    RULE_expr = 28
    RULE_primary = 29
    RULE_index = 30
    RULE_args = 31
    RULE_arg = 32
    RULE_name = 33

    ruleNames =  [ "program", "exprOnly", "topItem", "importDecl", "dottedName", 
                   "paramDecl", "deviceDecl", "fabricDecl", "fnDecl", "linkDecl", 
                   "paramList", "param", "typeName", "block", "stmt", "letStmt", 
                   "assertStmt", "forStmt", "ifStmt", "componentStmt", "instanceStmt", 
                   "attrBlock", "annotateStmt", "attr", "includeStmt", "edgeStmt", 
                   "scheme", "propStmt", "expr", "primary", "index", "args", 
                   "arg", "name" ]

    EOF = Token.EOF
    IMPORT=1
    AS=2
    PARAM=3
    DEVICE=4
    FABRIC=5
    FN=6
    LINK=7
    LET=8
    ASSERT=9
    FOR=10
    IN=11
    IF=12
    THEN=13
    ELSE=14
    COMPONENT=15
    INSTANCE=16
    ANNOTATE=17
    INCLUDE=18
    VIA=19
    ONE2ONE=20
    MANY2MANY=21
    RING=22
    TRUE=23
    FALSE=24
    AND=25
    OR=26
    NOT=27
    DOCSTRING=28
    STRING=29
    QUANTITY=30
    FLOAT=31
    INT=32
    EDGE=33
    DOTDOT=34
    DSLASH=35
    POW=36
    LE=37
    GE=38
    EQ=39
    NE=40
    LT=41
    GT=42
    ASSIGN=43
    PLUS=44
    MINUS=45
    STAR=46
    SLASH=47
    PERCENT=48
    DOT=49
    COMMA=50
    COLON=51
    SEMI=52
    LPAREN=53
    RPAREN=54
    LBRACK=55
    RBRACK=56
    LBRACE=57
    RBRACE=58
    IDENT=59
    QIDENT=60
    DOC_COMMENT=61
    COMMENT=62
    WS=63
    ERROR_CHAR=64

    def __init__(self, input:TokenStream, output:TextIO = sys.stdout):
        super().__init__(input, output)
        self.checkVersion("4.13.2")
        self._interp = ParserATNSimulator(self, self.atn, self.decisionsToDFA, self.sharedContextCache)
        self._predicates = None




    class ProgramContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def EOF(self):
            return self.getToken(InfraGraphParser.EOF, 0)

        def DOCSTRING(self):
            return self.getToken(InfraGraphParser.DOCSTRING, 0)

        def topItem(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.TopItemContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.TopItemContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_program

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitProgram" ):
                return visitor.visitProgram(self)
            else:
                return visitor.visitChildren(self)




    def program(self):

        localctx = InfraGraphParser.ProgramContext(self, self._ctx, self.state)
        self.enterRule(localctx, 0, self.RULE_program)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 69
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==28:
                self.state = 68
                self.match(InfraGraphParser.DOCSTRING)


            self.state = 74
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while (((_la) & ~0x3f) == 0 and ((1 << _la) & 1018) != 0):
                self.state = 71
                self.topItem()
                self.state = 76
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 77
            self.match(InfraGraphParser.EOF)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprOnlyContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def EOF(self):
            return self.getToken(InfraGraphParser.EOF, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_exprOnly

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitExprOnly" ):
                return visitor.visitExprOnly(self)
            else:
                return visitor.visitChildren(self)




    def exprOnly(self):

        localctx = InfraGraphParser.ExprOnlyContext(self, self._ctx, self.state)
        self.enterRule(localctx, 2, self.RULE_exprOnly)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 79
            self.expr(0)
            self.state = 80
            self.match(InfraGraphParser.EOF)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class TopItemContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def importDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.ImportDeclContext,0)


        def paramDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamDeclContext,0)


        def deviceDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.DeviceDeclContext,0)


        def fabricDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.FabricDeclContext,0)


        def fnDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.FnDeclContext,0)


        def linkDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.LinkDeclContext,0)


        def letStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.LetStmtContext,0)


        def assertStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AssertStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_topItem

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitTopItem" ):
                return visitor.visitTopItem(self)
            else:
                return visitor.visitChildren(self)




    def topItem(self):

        localctx = InfraGraphParser.TopItemContext(self, self._ctx, self.state)
        self.enterRule(localctx, 4, self.RULE_topItem)
        try:
            self.state = 90
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [1]:
                self.enterOuterAlt(localctx, 1)
                self.state = 82
                self.importDecl()
                pass
            elif token in [3]:
                self.enterOuterAlt(localctx, 2)
                self.state = 83
                self.paramDecl()
                pass
            elif token in [4]:
                self.enterOuterAlt(localctx, 3)
                self.state = 84
                self.deviceDecl()
                pass
            elif token in [5]:
                self.enterOuterAlt(localctx, 4)
                self.state = 85
                self.fabricDecl()
                pass
            elif token in [6]:
                self.enterOuterAlt(localctx, 5)
                self.state = 86
                self.fnDecl()
                pass
            elif token in [7]:
                self.enterOuterAlt(localctx, 6)
                self.state = 87
                self.linkDecl()
                pass
            elif token in [8]:
                self.enterOuterAlt(localctx, 7)
                self.state = 88
                self.letStmt()
                pass
            elif token in [9]:
                self.enterOuterAlt(localctx, 8)
                self.state = 89
                self.assertStmt()
                pass
            else:
                raise NoViableAltException(self)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ImportDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IMPORT(self):
            return self.getToken(InfraGraphParser.IMPORT, 0)

        def STRING(self):
            return self.getToken(InfraGraphParser.STRING, 0)

        def dottedName(self):
            return self.getTypedRuleContext(InfraGraphParser.DottedNameContext,0)


        def AS(self):
            return self.getToken(InfraGraphParser.AS, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_importDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitImportDecl" ):
                return visitor.visitImportDecl(self)
            else:
                return visitor.visitChildren(self)




    def importDecl(self):

        localctx = InfraGraphParser.ImportDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 6, self.RULE_importDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 92
            self.match(InfraGraphParser.IMPORT)
            self.state = 95
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [29]:
                self.state = 93
                self.match(InfraGraphParser.STRING)
                pass
            elif token in [59, 60]:
                self.state = 94
                self.dottedName()
                pass
            else:
                raise NoViableAltException(self)

            self.state = 99
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==2:
                self.state = 97
                self.match(InfraGraphParser.AS)
                self.state = 98
                self.name()


            self.state = 102
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 101
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class DottedNameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.NameContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.NameContext,i)


        def DOT(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.DOT)
            else:
                return self.getToken(InfraGraphParser.DOT, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_dottedName

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitDottedName" ):
                return visitor.visitDottedName(self)
            else:
                return visitor.visitChildren(self)




    def dottedName(self):

        localctx = InfraGraphParser.DottedNameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 8, self.RULE_dottedName)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 104
            self.name()
            self.state = 109
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==49:
                self.state = 105
                self.match(InfraGraphParser.DOT)
                self.state = 106
                self.name()
                self.state = 111
                self._errHandler.sync(self)
                _la = self._input.LA(1)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def PARAM(self):
            return self.getToken(InfraGraphParser.PARAM, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def typeName(self):
            return self.getTypedRuleContext(InfraGraphParser.TypeNameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_paramDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParamDecl" ):
                return visitor.visitParamDecl(self)
            else:
                return visitor.visitChildren(self)




    def paramDecl(self):

        localctx = InfraGraphParser.ParamDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 10, self.RULE_paramDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 112
            self.match(InfraGraphParser.PARAM)
            self.state = 113
            self.name()
            self.state = 114
            self.match(InfraGraphParser.COLON)
            self.state = 115
            self.typeName()
            self.state = 118
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==43:
                self.state = 116
                self.match(InfraGraphParser.ASSIGN)
                self.state = 117
                self.expr(0)


            self.state = 121
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 120
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class DeviceDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def DEVICE(self):
            return self.getToken(InfraGraphParser.DEVICE, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_deviceDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitDeviceDecl" ):
                return visitor.visitDeviceDecl(self)
            else:
                return visitor.visitChildren(self)




    def deviceDecl(self):

        localctx = InfraGraphParser.DeviceDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 12, self.RULE_deviceDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 123
            self.match(InfraGraphParser.DEVICE)
            self.state = 124
            self.name()
            self.state = 126
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==53:
                self.state = 125
                self.paramList()


            self.state = 128
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class FabricDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_fabricDecl

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class FabricAliasContext(FabricDeclContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.FabricDeclContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FABRIC(self):
            return self.getToken(InfraGraphParser.FABRIC, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFabricAlias" ):
                return visitor.visitFabricAlias(self)
            else:
                return visitor.visitChildren(self)


    class FabricBodyContext(FabricDeclContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.FabricDeclContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FABRIC(self):
            return self.getToken(InfraGraphParser.FABRIC, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)

        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFabricBody" ):
                return visitor.visitFabricBody(self)
            else:
                return visitor.visitChildren(self)



    def fabricDecl(self):

        localctx = InfraGraphParser.FabricDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 14, self.RULE_fabricDecl)
        self._la = 0 # Token type
        try:
            self.state = 144
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,12,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.FabricBodyContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 130
                self.match(InfraGraphParser.FABRIC)
                self.state = 131
                self.name()
                self.state = 133
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==53:
                    self.state = 132
                    self.paramList()


                self.state = 135
                self.block()
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.FabricAliasContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 137
                self.match(InfraGraphParser.FABRIC)
                self.state = 138
                self.name()
                self.state = 139
                self.match(InfraGraphParser.ASSIGN)
                self.state = 140
                self.expr(0)
                self.state = 142
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==52:
                    self.state = 141
                    self.match(InfraGraphParser.SEMI)


                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class FnDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def FN(self):
            return self.getToken(InfraGraphParser.FN, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_fnDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFnDecl" ):
                return visitor.visitFnDecl(self)
            else:
                return visitor.visitChildren(self)




    def fnDecl(self):

        localctx = InfraGraphParser.FnDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 16, self.RULE_fnDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 146
            self.match(InfraGraphParser.FN)
            self.state = 147
            self.name()
            self.state = 148
            self.paramList()
            self.state = 149
            self.match(InfraGraphParser.ASSIGN)
            self.state = 150
            self.expr(0)
            self.state = 152
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 151
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class LinkDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LINK(self):
            return self.getToken(InfraGraphParser.LINK, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_linkDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLinkDecl" ):
                return visitor.visitLinkDecl(self)
            else:
                return visitor.visitChildren(self)




    def linkDecl(self):

        localctx = InfraGraphParser.LinkDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 18, self.RULE_linkDecl)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 154
            self.match(InfraGraphParser.LINK)
            self.state = 155
            self.name()
            self.state = 156
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamListContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)

        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)

        def param(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ParamContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ParamContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_paramList

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParamList" ):
                return visitor.visitParamList(self)
            else:
                return visitor.visitChildren(self)




    def paramList(self):

        localctx = InfraGraphParser.ParamListContext(self, self._ctx, self.state)
        self.enterRule(localctx, 20, self.RULE_paramList)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 158
            self.match(InfraGraphParser.LPAREN)
            self.state = 170
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==59 or _la==60:
                self.state = 159
                self.param()
                self.state = 164
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,14,self._ctx)
                while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                    if _alt==1:
                        self.state = 160
                        self.match(InfraGraphParser.COMMA)
                        self.state = 161
                        self.param() 
                    self.state = 166
                    self._errHandler.sync(self)
                    _alt = self._interp.adaptivePredict(self._input,14,self._ctx)

                self.state = 168
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==50:
                    self.state = 167
                    self.match(InfraGraphParser.COMMA)




            self.state = 172
            self.match(InfraGraphParser.RPAREN)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def typeName(self):
            return self.getTypedRuleContext(InfraGraphParser.TypeNameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_param

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParam" ):
                return visitor.visitParam(self)
            else:
                return visitor.visitChildren(self)




    def param(self):

        localctx = InfraGraphParser.ParamContext(self, self._ctx, self.state)
        self.enterRule(localctx, 22, self.RULE_param)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 174
            self.name()
            self.state = 175
            self.match(InfraGraphParser.COLON)
            self.state = 176
            self.typeName()
            self.state = 179
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==43:
                self.state = 177
                self.match(InfraGraphParser.ASSIGN)
                self.state = 178
                self.expr(0)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class TypeNameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.NameContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.NameContext,i)


        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_typeName

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitTypeName" ):
                return visitor.visitTypeName(self)
            else:
                return visitor.visitChildren(self)




    def typeName(self):

        localctx = InfraGraphParser.TypeNameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 24, self.RULE_typeName)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 181
            self.name()
            self.state = 186
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==55:
                self.state = 182
                self.match(InfraGraphParser.LBRACK)
                self.state = 183
                self.name()
                self.state = 184
                self.match(InfraGraphParser.RBRACK)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class BlockContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LBRACE(self):
            return self.getToken(InfraGraphParser.LBRACE, 0)

        def RBRACE(self):
            return self.getToken(InfraGraphParser.RBRACE, 0)

        def DOCSTRING(self):
            return self.getToken(InfraGraphParser.DOCSTRING, 0)

        def stmt(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.StmtContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.StmtContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_block

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitBlock" ):
                return visitor.visitBlock(self)
            else:
                return visitor.visitChildren(self)




    def block(self):

        localctx = InfraGraphParser.BlockContext(self, self._ctx, self.state)
        self.enterRule(localctx, 26, self.RULE_block)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 188
            self.match(InfraGraphParser.LBRACE)
            self.state = 190
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==28:
                self.state = 189
                self.match(InfraGraphParser.DOCSTRING)


            self.state = 195
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445769009024) != 0):
                self.state = 192
                self.stmt()
                self.state = 197
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 198
            self.match(InfraGraphParser.RBRACE)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class StmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def letStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.LetStmtContext,0)


        def assertStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AssertStmtContext,0)


        def forStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.ForStmtContext,0)


        def ifStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IfStmtContext,0)


        def componentStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.ComponentStmtContext,0)


        def instanceStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.InstanceStmtContext,0)


        def linkDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.LinkDeclContext,0)


        def annotateStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AnnotateStmtContext,0)


        def includeStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IncludeStmtContext,0)


        def edgeStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.EdgeStmtContext,0)


        def propStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.PropStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_stmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitStmt" ):
                return visitor.visitStmt(self)
            else:
                return visitor.visitChildren(self)




    def stmt(self):

        localctx = InfraGraphParser.StmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 28, self.RULE_stmt)
        try:
            self.state = 211
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,21,self._ctx)
            if la_ == 1:
                self.enterOuterAlt(localctx, 1)
                self.state = 200
                self.letStmt()
                pass

            elif la_ == 2:
                self.enterOuterAlt(localctx, 2)
                self.state = 201
                self.assertStmt()
                pass

            elif la_ == 3:
                self.enterOuterAlt(localctx, 3)
                self.state = 202
                self.forStmt()
                pass

            elif la_ == 4:
                self.enterOuterAlt(localctx, 4)
                self.state = 203
                self.ifStmt()
                pass

            elif la_ == 5:
                self.enterOuterAlt(localctx, 5)
                self.state = 204
                self.componentStmt()
                pass

            elif la_ == 6:
                self.enterOuterAlt(localctx, 6)
                self.state = 205
                self.instanceStmt()
                pass

            elif la_ == 7:
                self.enterOuterAlt(localctx, 7)
                self.state = 206
                self.linkDecl()
                pass

            elif la_ == 8:
                self.enterOuterAlt(localctx, 8)
                self.state = 207
                self.annotateStmt()
                pass

            elif la_ == 9:
                self.enterOuterAlt(localctx, 9)
                self.state = 208
                self.includeStmt()
                pass

            elif la_ == 10:
                self.enterOuterAlt(localctx, 10)
                self.state = 209
                self.edgeStmt()
                pass

            elif la_ == 11:
                self.enterOuterAlt(localctx, 11)
                self.state = 210
                self.propStmt()
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class LetStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LET(self):
            return self.getToken(InfraGraphParser.LET, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_letStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLetStmt" ):
                return visitor.visitLetStmt(self)
            else:
                return visitor.visitChildren(self)




    def letStmt(self):

        localctx = InfraGraphParser.LetStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 30, self.RULE_letStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 213
            self.match(InfraGraphParser.LET)
            self.state = 214
            self.name()
            self.state = 215
            self.match(InfraGraphParser.ASSIGN)
            self.state = 216
            self.expr(0)
            self.state = 218
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 217
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AssertStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ASSERT(self):
            return self.getToken(InfraGraphParser.ASSERT, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def COMMA(self):
            return self.getToken(InfraGraphParser.COMMA, 0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_assertStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAssertStmt" ):
                return visitor.visitAssertStmt(self)
            else:
                return visitor.visitChildren(self)




    def assertStmt(self):

        localctx = InfraGraphParser.AssertStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 32, self.RULE_assertStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 220
            self.match(InfraGraphParser.ASSERT)
            self.state = 221
            self.expr(0)
            self.state = 224
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==50:
                self.state = 222
                self.match(InfraGraphParser.COMMA)
                self.state = 223
                self.expr(0)


            self.state = 227
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 226
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ForStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def FOR(self):
            return self.getToken(InfraGraphParser.FOR, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_forStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitForStmt" ):
                return visitor.visitForStmt(self)
            else:
                return visitor.visitChildren(self)




    def forStmt(self):

        localctx = InfraGraphParser.ForStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 34, self.RULE_forStmt)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 229
            self.match(InfraGraphParser.FOR)
            self.state = 230
            self.name()
            self.state = 231
            self.match(InfraGraphParser.IN)
            self.state = 232
            self.expr(0)
            self.state = 233
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IfStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def block(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.BlockContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.BlockContext,i)


        def ELSE(self):
            return self.getToken(InfraGraphParser.ELSE, 0)

        def ifStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IfStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_ifStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIfStmt" ):
                return visitor.visitIfStmt(self)
            else:
                return visitor.visitChildren(self)




    def ifStmt(self):

        localctx = InfraGraphParser.IfStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 36, self.RULE_ifStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 235
            self.match(InfraGraphParser.IF)
            self.state = 236
            self.expr(0)
            self.state = 237
            self.block()
            self.state = 243
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==14:
                self.state = 238
                self.match(InfraGraphParser.ELSE)
                self.state = 241
                self._errHandler.sync(self)
                token = self._input.LA(1)
                if token in [12]:
                    self.state = 239
                    self.ifStmt()
                    pass
                elif token in [57]:
                    self.state = 240
                    self.block()
                    pass
                else:
                    raise NoViableAltException(self)



        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ComponentStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def COMPONENT(self):
            return self.getToken(InfraGraphParser.COMPONENT, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def attrBlock(self):
            return self.getTypedRuleContext(InfraGraphParser.AttrBlockContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_componentStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitComponentStmt" ):
                return visitor.visitComponentStmt(self)
            else:
                return visitor.visitChildren(self)




    def componentStmt(self):

        localctx = InfraGraphParser.ComponentStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 38, self.RULE_componentStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 245
            self.match(InfraGraphParser.COMPONENT)
            self.state = 246
            self.name()
            self.state = 251
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==55:
                self.state = 247
                self.match(InfraGraphParser.LBRACK)
                self.state = 248
                self.expr(0)
                self.state = 249
                self.match(InfraGraphParser.RBRACK)


            self.state = 253
            self.match(InfraGraphParser.COLON)
            self.state = 254
            self.expr(0)
            self.state = 256
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==57:
                self.state = 255
                self.attrBlock()


            self.state = 259
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 258
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class InstanceStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def INSTANCE(self):
            return self.getToken(InfraGraphParser.INSTANCE, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def attrBlock(self):
            return self.getTypedRuleContext(InfraGraphParser.AttrBlockContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_instanceStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitInstanceStmt" ):
                return visitor.visitInstanceStmt(self)
            else:
                return visitor.visitChildren(self)




    def instanceStmt(self):

        localctx = InfraGraphParser.InstanceStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 40, self.RULE_instanceStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 261
            self.match(InfraGraphParser.INSTANCE)
            self.state = 262
            self.name()
            self.state = 267
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==55:
                self.state = 263
                self.match(InfraGraphParser.LBRACK)
                self.state = 264
                self.expr(0)
                self.state = 265
                self.match(InfraGraphParser.RBRACK)


            self.state = 269
            self.match(InfraGraphParser.COLON)
            self.state = 270
            self.expr(0)
            self.state = 272
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==57:
                self.state = 271
                self.attrBlock()


            self.state = 275
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 274
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AttrBlockContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LBRACE(self):
            return self.getToken(InfraGraphParser.LBRACE, 0)

        def RBRACE(self):
            return self.getToken(InfraGraphParser.RBRACE, 0)

        def propStmt(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.PropStmtContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.PropStmtContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_attrBlock

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAttrBlock" ):
                return visitor.visitAttrBlock(self)
            else:
                return visitor.visitChildren(self)




    def attrBlock(self):

        localctx = InfraGraphParser.AttrBlockContext(self, self._ctx, self.state)
        self.enterRule(localctx, 42, self.RULE_attrBlock)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 277
            self.match(InfraGraphParser.LBRACE)
            self.state = 281
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==59 or _la==60:
                self.state = 278
                self.propStmt()
                self.state = 283
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 284
            self.match(InfraGraphParser.RBRACE)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AnnotateStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ANNOTATE(self):
            return self.getToken(InfraGraphParser.ANNOTATE, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def attr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.AttrContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.AttrContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_annotateStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAnnotateStmt" ):
                return visitor.visitAnnotateStmt(self)
            else:
                return visitor.visitChildren(self)




    def annotateStmt(self):

        localctx = InfraGraphParser.AnnotateStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 44, self.RULE_annotateStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 286
            self.match(InfraGraphParser.ANNOTATE)
            self.state = 287
            self.expr(0)
            self.state = 288
            self.attr()
            self.state = 293
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==50:
                self.state = 289
                self.match(InfraGraphParser.COMMA)
                self.state = 290
                self.attr()
                self.state = 295
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 297
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 296
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AttrContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_attr

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAttr" ):
                return visitor.visitAttr(self)
            else:
                return visitor.visitChildren(self)




    def attr(self):

        localctx = InfraGraphParser.AttrContext(self, self._ctx, self.state)
        self.enterRule(localctx, 46, self.RULE_attr)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 299
            self.name()
            self.state = 300
            self.match(InfraGraphParser.ASSIGN)
            self.state = 301
            self.expr(0)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IncludeStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def INCLUDE(self):
            return self.getToken(InfraGraphParser.INCLUDE, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def AS(self):
            return self.getToken(InfraGraphParser.AS, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_includeStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIncludeStmt" ):
                return visitor.visitIncludeStmt(self)
            else:
                return visitor.visitChildren(self)




    def includeStmt(self):

        localctx = InfraGraphParser.IncludeStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 48, self.RULE_includeStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 303
            self.match(InfraGraphParser.INCLUDE)
            self.state = 304
            self.expr(0)
            self.state = 307
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==2:
                self.state = 305
                self.match(InfraGraphParser.AS)
                self.state = 306
                self.name()


            self.state = 310
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 309
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class EdgeStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def EDGE(self):
            return self.getToken(InfraGraphParser.EDGE, 0)

        def scheme(self):
            return self.getTypedRuleContext(InfraGraphParser.SchemeContext,0)


        def VIA(self):
            return self.getToken(InfraGraphParser.VIA, 0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_edgeStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitEdgeStmt" ):
                return visitor.visitEdgeStmt(self)
            else:
                return visitor.visitChildren(self)




    def edgeStmt(self):

        localctx = InfraGraphParser.EdgeStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 50, self.RULE_edgeStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 312
            self.expr(0)
            self.state = 313
            self.match(InfraGraphParser.EDGE)
            self.state = 314
            self.expr(0)
            self.state = 316
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if (((_la) & ~0x3f) == 0 and ((1 << _la) & 7340032) != 0):
                self.state = 315
                self.scheme()


            self.state = 320
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==19:
                self.state = 318
                self.match(InfraGraphParser.VIA)
                self.state = 319
                self.expr(0)


            self.state = 323
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 322
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class SchemeContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ONE2ONE(self):
            return self.getToken(InfraGraphParser.ONE2ONE, 0)

        def MANY2MANY(self):
            return self.getToken(InfraGraphParser.MANY2MANY, 0)

        def RING(self):
            return self.getToken(InfraGraphParser.RING, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_scheme

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitScheme" ):
                return visitor.visitScheme(self)
            else:
                return visitor.visitChildren(self)




    def scheme(self):

        localctx = InfraGraphParser.SchemeContext(self, self._ctx, self.state)
        self.enterRule(localctx, 52, self.RULE_scheme)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 325
            _la = self._input.LA(1)
            if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 7340032) != 0)):
                self._errHandler.recoverInline(self)
            else:
                self._errHandler.reportMatch(self)
                self.consume()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class PropStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_propStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPropStmt" ):
                return visitor.visitPropStmt(self)
            else:
                return visitor.visitChildren(self)




    def propStmt(self):

        localctx = InfraGraphParser.PropStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 54, self.RULE_propStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 327
            self.name()
            self.state = 328
            self.match(InfraGraphParser.ASSIGN)
            self.state = 329
            self.expr(0)
            self.state = 331
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 330
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_expr

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)


    class MemberExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def DOT(self):
            return self.getToken(InfraGraphParser.DOT, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitMemberExpr" ):
                return visitor.visitMemberExpr(self)
            else:
                return visitor.visitChildren(self)


    class OrExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def OR(self):
            return self.getToken(InfraGraphParser.OR, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitOrExpr" ):
                return visitor.visitOrExpr(self)
            else:
                return visitor.visitChildren(self)


    class CmpExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def LT(self):
            return self.getToken(InfraGraphParser.LT, 0)
        def LE(self):
            return self.getToken(InfraGraphParser.LE, 0)
        def GT(self):
            return self.getToken(InfraGraphParser.GT, 0)
        def GE(self):
            return self.getToken(InfraGraphParser.GE, 0)
        def EQ(self):
            return self.getToken(InfraGraphParser.EQ, 0)
        def NE(self):
            return self.getToken(InfraGraphParser.NE, 0)
        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCmpExpr" ):
                return visitor.visitCmpExpr(self)
            else:
                return visitor.visitChildren(self)


    class IndexExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def index(self):
            return self.getTypedRuleContext(InfraGraphParser.IndexContext,0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIndexExpr" ):
                return visitor.visitIndexExpr(self)
            else:
                return visitor.visitChildren(self)


    class NotExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def NOT(self):
            return self.getToken(InfraGraphParser.NOT, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNotExpr" ):
                return visitor.visitNotExpr(self)
            else:
                return visitor.visitChildren(self)


    class PrimaryExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def primary(self):
            return self.getTypedRuleContext(InfraGraphParser.PrimaryContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPrimaryExpr" ):
                return visitor.visitPrimaryExpr(self)
            else:
                return visitor.visitChildren(self)


    class AddExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def PLUS(self):
            return self.getToken(InfraGraphParser.PLUS, 0)
        def MINUS(self):
            return self.getToken(InfraGraphParser.MINUS, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAddExpr" ):
                return visitor.visitAddExpr(self)
            else:
                return visitor.visitChildren(self)


    class NegExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def MINUS(self):
            return self.getToken(InfraGraphParser.MINUS, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNegExpr" ):
                return visitor.visitNegExpr(self)
            else:
                return visitor.visitChildren(self)


    class MulExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def STAR(self):
            return self.getToken(InfraGraphParser.STAR, 0)
        def SLASH(self):
            return self.getToken(InfraGraphParser.SLASH, 0)
        def DSLASH(self):
            return self.getToken(InfraGraphParser.DSLASH, 0)
        def PERCENT(self):
            return self.getToken(InfraGraphParser.PERCENT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitMulExpr" ):
                return visitor.visitMulExpr(self)
            else:
                return visitor.visitChildren(self)


    class PowExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def POW(self):
            return self.getToken(InfraGraphParser.POW, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPowExpr" ):
                return visitor.visitPowExpr(self)
            else:
                return visitor.visitChildren(self)


    class CallExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)
        def args(self):
            return self.getTypedRuleContext(InfraGraphParser.ArgsContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCallExpr" ):
                return visitor.visitCallExpr(self)
            else:
                return visitor.visitChildren(self)


    class RangeExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def DOTDOT(self):
            return self.getToken(InfraGraphParser.DOTDOT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitRangeExpr" ):
                return visitor.visitRangeExpr(self)
            else:
                return visitor.visitChildren(self)


    class AndExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def AND(self):
            return self.getToken(InfraGraphParser.AND, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAndExpr" ):
                return visitor.visitAndExpr(self)
            else:
                return visitor.visitChildren(self)



    def expr(self, _p:int=0):
        _parentctx = self._ctx
        _parentState = self.state
        localctx = InfraGraphParser.ExprContext(self, self._ctx, _parentState)
        _prevctx = localctx
        _startState = 56
        self.enterRecursionRule(localctx, 56, self.RULE_expr, _p)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 339
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [7, 12, 23, 24, 29, 30, 31, 32, 53, 55, 59, 60]:
                localctx = InfraGraphParser.PrimaryExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx

                self.state = 334
                self.primary()
                pass
            elif token in [45]:
                localctx = InfraGraphParser.NegExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx
                self.state = 335
                self.match(InfraGraphParser.MINUS)
                self.state = 336
                self.expr(8)
                pass
            elif token in [27]:
                localctx = InfraGraphParser.NotExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx
                self.state = 337
                self.match(InfraGraphParser.NOT)
                self.state = 338
                self.expr(3)
                pass
            else:
                raise NoViableAltException(self)

            self._ctx.stop = self._input.LT(-1)
            self.state = 378
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,45,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    if self._parseListeners is not None:
                        self.triggerExitRuleEvent()
                    _prevctx = localctx
                    self.state = 376
                    self._errHandler.sync(self)
                    la_ = self._interp.adaptivePredict(self._input,44,self._ctx)
                    if la_ == 1:
                        localctx = InfraGraphParser.PowExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 341
                        if not self.precpred(self._ctx, 9):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 9)")
                        self.state = 342
                        self.match(InfraGraphParser.POW)
                        self.state = 343
                        self.expr(9)
                        pass

                    elif la_ == 2:
                        localctx = InfraGraphParser.MulExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 344
                        if not self.precpred(self._ctx, 7):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 7)")
                        self.state = 345
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 492615568982016) != 0)):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 346
                        self.expr(8)
                        pass

                    elif la_ == 3:
                        localctx = InfraGraphParser.AddExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 347
                        if not self.precpred(self._ctx, 6):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 6)")
                        self.state = 348
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not(_la==44 or _la==45):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 349
                        self.expr(7)
                        pass

                    elif la_ == 4:
                        localctx = InfraGraphParser.RangeExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 350
                        if not self.precpred(self._ctx, 5):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 5)")
                        self.state = 351
                        self.match(InfraGraphParser.DOTDOT)
                        self.state = 352
                        self.expr(6)
                        pass

                    elif la_ == 5:
                        localctx = InfraGraphParser.CmpExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 353
                        if not self.precpred(self._ctx, 4):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 4)")
                        self.state = 354
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 8658654070784) != 0)):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 355
                        self.expr(5)
                        pass

                    elif la_ == 6:
                        localctx = InfraGraphParser.AndExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 356
                        if not self.precpred(self._ctx, 2):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 2)")
                        self.state = 357
                        self.match(InfraGraphParser.AND)
                        self.state = 358
                        self.expr(3)
                        pass

                    elif la_ == 7:
                        localctx = InfraGraphParser.OrExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 359
                        if not self.precpred(self._ctx, 1):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 1)")
                        self.state = 360
                        self.match(InfraGraphParser.OR)
                        self.state = 361
                        self.expr(2)
                        pass

                    elif la_ == 8:
                        localctx = InfraGraphParser.MemberExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 362
                        if not self.precpred(self._ctx, 12):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 12)")
                        self.state = 363
                        self.match(InfraGraphParser.DOT)
                        self.state = 364
                        self.name()
                        pass

                    elif la_ == 9:
                        localctx = InfraGraphParser.IndexExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 365
                        if not self.precpred(self._ctx, 11):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 11)")
                        self.state = 366
                        self.match(InfraGraphParser.LBRACK)
                        self.state = 367
                        self.index()
                        self.state = 368
                        self.match(InfraGraphParser.RBRACK)
                        pass

                    elif la_ == 10:
                        localctx = InfraGraphParser.CallExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 370
                        if not self.precpred(self._ctx, 10):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 10)")
                        self.state = 371
                        self.match(InfraGraphParser.LPAREN)
                        self.state = 373
                        self._errHandler.sync(self)
                        _la = self._input.LA(1)
                        if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                            self.state = 372
                            self.args()


                        self.state = 375
                        self.match(InfraGraphParser.RPAREN)
                        pass

             
                self.state = 380
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,45,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.unrollRecursionContexts(_parentctx)
        return localctx


    class PrimaryContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_primary

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class QuantityLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def QUANTITY(self):
            return self.getToken(InfraGraphParser.QUANTITY, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitQuantityLit" ):
                return visitor.visitQuantityLit(self)
            else:
                return visitor.visitChildren(self)


    class StringLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def STRING(self):
            return self.getToken(InfraGraphParser.STRING, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitStringLit" ):
                return visitor.visitStringLit(self)
            else:
                return visitor.visitChildren(self)


    class ListLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitListLit" ):
                return visitor.visitListLit(self)
            else:
                return visitor.visitChildren(self)


    class FloatLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FLOAT(self):
            return self.getToken(InfraGraphParser.FLOAT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFloatLit" ):
                return visitor.visitFloatLit(self)
            else:
                return visitor.visitChildren(self)


    class BoolLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def TRUE(self):
            return self.getToken(InfraGraphParser.TRUE, 0)
        def FALSE(self):
            return self.getToken(InfraGraphParser.FALSE, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitBoolLit" ):
                return visitor.visitBoolLit(self)
            else:
                return visitor.visitChildren(self)


    class IntLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def INT(self):
            return self.getToken(InfraGraphParser.INT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIntLit" ):
                return visitor.visitIntLit(self)
            else:
                return visitor.visitChildren(self)


    class CondExprContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def THEN(self):
            return self.getToken(InfraGraphParser.THEN, 0)
        def ELSE(self):
            return self.getToken(InfraGraphParser.ELSE, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCondExpr" ):
                return visitor.visitCondExpr(self)
            else:
                return visitor.visitChildren(self)


    class NameRefContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNameRef" ):
                return visitor.visitNameRef(self)
            else:
                return visitor.visitChildren(self)


    class ComprehensionContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def FOR(self):
            return self.getToken(InfraGraphParser.FOR, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)
        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)
        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitComprehension" ):
                return visitor.visitComprehension(self)
            else:
                return visitor.visitChildren(self)


    class LinkCallContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LINK(self):
            return self.getToken(InfraGraphParser.LINK, 0)
        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)
        def args(self):
            return self.getTypedRuleContext(InfraGraphParser.ArgsContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLinkCall" ):
                return visitor.visitLinkCall(self)
            else:
                return visitor.visitChildren(self)


    class ParenExprContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParenExpr" ):
                return visitor.visitParenExpr(self)
            else:
                return visitor.visitChildren(self)



    def primary(self):

        localctx = InfraGraphParser.PrimaryContext(self, self._ctx, self.state)
        self.enterRule(localctx, 58, self.RULE_primary)
        self._la = 0 # Token type
        try:
            self.state = 431
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,51,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.IntLitContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 381
                self.match(InfraGraphParser.INT)
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.FloatLitContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 382
                self.match(InfraGraphParser.FLOAT)
                pass

            elif la_ == 3:
                localctx = InfraGraphParser.QuantityLitContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 383
                self.match(InfraGraphParser.QUANTITY)
                pass

            elif la_ == 4:
                localctx = InfraGraphParser.StringLitContext(self, localctx)
                self.enterOuterAlt(localctx, 4)
                self.state = 384
                self.match(InfraGraphParser.STRING)
                pass

            elif la_ == 5:
                localctx = InfraGraphParser.BoolLitContext(self, localctx)
                self.enterOuterAlt(localctx, 5)
                self.state = 385
                _la = self._input.LA(1)
                if not(_la==23 or _la==24):
                    self._errHandler.recoverInline(self)
                else:
                    self._errHandler.reportMatch(self)
                    self.consume()
                pass

            elif la_ == 6:
                localctx = InfraGraphParser.NameRefContext(self, localctx)
                self.enterOuterAlt(localctx, 6)
                self.state = 386
                self.name()
                pass

            elif la_ == 7:
                localctx = InfraGraphParser.LinkCallContext(self, localctx)
                self.enterOuterAlt(localctx, 7)
                self.state = 387
                self.match(InfraGraphParser.LINK)
                self.state = 388
                self.match(InfraGraphParser.LPAREN)
                self.state = 390
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 389
                    self.args()


                self.state = 392
                self.match(InfraGraphParser.RPAREN)
                pass

            elif la_ == 8:
                localctx = InfraGraphParser.ParenExprContext(self, localctx)
                self.enterOuterAlt(localctx, 8)
                self.state = 393
                self.match(InfraGraphParser.LPAREN)
                self.state = 394
                self.expr(0)
                self.state = 395
                self.match(InfraGraphParser.RPAREN)
                pass

            elif la_ == 9:
                localctx = InfraGraphParser.ComprehensionContext(self, localctx)
                self.enterOuterAlt(localctx, 9)
                self.state = 397
                self.match(InfraGraphParser.LBRACK)
                self.state = 398
                self.expr(0)
                self.state = 399
                self.match(InfraGraphParser.FOR)
                self.state = 400
                self.name()
                self.state = 401
                self.match(InfraGraphParser.IN)
                self.state = 402
                self.expr(0)
                self.state = 405
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==12:
                    self.state = 403
                    self.match(InfraGraphParser.IF)
                    self.state = 404
                    self.expr(0)


                self.state = 407
                self.match(InfraGraphParser.RBRACK)
                pass

            elif la_ == 10:
                localctx = InfraGraphParser.ListLitContext(self, localctx)
                self.enterOuterAlt(localctx, 10)
                self.state = 409
                self.match(InfraGraphParser.LBRACK)
                self.state = 421
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 410
                    self.expr(0)
                    self.state = 415
                    self._errHandler.sync(self)
                    _alt = self._interp.adaptivePredict(self._input,48,self._ctx)
                    while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                        if _alt==1:
                            self.state = 411
                            self.match(InfraGraphParser.COMMA)
                            self.state = 412
                            self.expr(0) 
                        self.state = 417
                        self._errHandler.sync(self)
                        _alt = self._interp.adaptivePredict(self._input,48,self._ctx)

                    self.state = 419
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if _la==50:
                        self.state = 418
                        self.match(InfraGraphParser.COMMA)




                self.state = 423
                self.match(InfraGraphParser.RBRACK)
                pass

            elif la_ == 11:
                localctx = InfraGraphParser.CondExprContext(self, localctx)
                self.enterOuterAlt(localctx, 11)
                self.state = 424
                self.match(InfraGraphParser.IF)
                self.state = 425
                self.expr(0)
                self.state = 426
                self.match(InfraGraphParser.THEN)
                self.state = 427
                self.expr(0)
                self.state = 428
                self.match(InfraGraphParser.ELSE)
                self.state = 429
                self.expr(0)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IndexContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_index

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class SliceIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.lo = None # ExprContext
            self.hi = None # ExprContext
            self.step = None # ExprContext
            self.copyFrom(ctx)

        def COLON(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COLON)
            else:
                return self.getToken(InfraGraphParser.COLON, i)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitSliceIndex" ):
                return visitor.visitSliceIndex(self)
            else:
                return visitor.visitChildren(self)


    class AllIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def STAR(self):
            return self.getToken(InfraGraphParser.STAR, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAllIndex" ):
                return visitor.visitAllIndex(self)
            else:
                return visitor.visitChildren(self)


    class OneIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitOneIndex" ):
                return visitor.visitOneIndex(self)
            else:
                return visitor.visitChildren(self)



    def index(self):

        localctx = InfraGraphParser.IndexContext(self, self._ctx, self.state)
        self.enterRule(localctx, 60, self.RULE_index)
        self._la = 0 # Token type
        try:
            self.state = 448
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,56,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.AllIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 433
                self.match(InfraGraphParser.STAR)
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.SliceIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 435
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 434
                    localctx.lo = self.expr(0)


                self.state = 437
                self.match(InfraGraphParser.COLON)
                self.state = 439
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 438
                    localctx.hi = self.expr(0)


                self.state = 445
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==51:
                    self.state = 441
                    self.match(InfraGraphParser.COLON)
                    self.state = 443
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                        self.state = 442
                        localctx.step = self.expr(0)




                pass

            elif la_ == 3:
                localctx = InfraGraphParser.OneIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 447
                self.expr(0)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ArgsContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def arg(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ArgContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ArgContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_args

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitArgs" ):
                return visitor.visitArgs(self)
            else:
                return visitor.visitChildren(self)




    def args(self):

        localctx = InfraGraphParser.ArgsContext(self, self._ctx, self.state)
        self.enterRule(localctx, 62, self.RULE_args)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 450
            self.arg()
            self.state = 455
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,57,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    self.state = 451
                    self.match(InfraGraphParser.COMMA)
                    self.state = 452
                    self.arg() 
                self.state = 457
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,57,self._ctx)

            self.state = 459
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==50:
                self.state = 458
                self.match(InfraGraphParser.COMMA)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ArgContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_arg

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitArg" ):
                return visitor.visitArg(self)
            else:
                return visitor.visitChildren(self)




    def arg(self):

        localctx = InfraGraphParser.ArgContext(self, self._ctx, self.state)
        self.enterRule(localctx, 64, self.RULE_arg)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 464
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,59,self._ctx)
            if la_ == 1:
                self.state = 461
                self.name()
                self.state = 462
                self.match(InfraGraphParser.ASSIGN)


            self.state = 466
            self.expr(0)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class NameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IDENT(self):
            return self.getToken(InfraGraphParser.IDENT, 0)

        def QIDENT(self):
            return self.getToken(InfraGraphParser.QIDENT, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_name

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitName" ):
                return visitor.visitName(self)
            else:
                return visitor.visitChildren(self)




    def name(self):

        localctx = InfraGraphParser.NameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 66, self.RULE_name)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 468
            _la = self._input.LA(1)
            if not(_la==59 or _la==60):
                self._errHandler.recoverInline(self)
            else:
                self._errHandler.reportMatch(self)
                self.consume()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx



    def sempred(self, localctx:RuleContext, ruleIndex:int, predIndex:int):
        if self._predicates == None:
            self._predicates = dict()
        self._predicates[28] = self.expr_sempred
        pred = self._predicates.get(ruleIndex, None)
        if pred is None:
            raise Exception("No predicate with index:" + str(ruleIndex))
        else:
            return pred(localctx, predIndex)

    def expr_sempred(self, localctx:ExprContext, predIndex:int):
            if predIndex == 0:
                return self.precpred(self._ctx, 9)
         

            if predIndex == 1:
                return self.precpred(self._ctx, 7)
         

            if predIndex == 2:
                return self.precpred(self._ctx, 6)
         

            if predIndex == 3:
                return self.precpred(self._ctx, 5)
         

            if predIndex == 4:
                return self.precpred(self._ctx, 4)
         

            if predIndex == 5:
                return self.precpred(self._ctx, 2)
         

            if predIndex == 6:
                return self.precpred(self._ctx, 1)
         

            if predIndex == 7:
                return self.precpred(self._ctx, 12)
         

            if predIndex == 8:
                return self.precpred(self._ctx, 11)
         

            if predIndex == 9:
                return self.precpred(self._ctx, 10)
         




